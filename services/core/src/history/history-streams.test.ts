import { describe, expect, it } from 'vitest';
import { historyStreams } from './history-streams.js';

const source = {
  VideoCodec: 'hevc',
  Width: 3840,
  Height: 2160,
  AudioCodec: 'eac3',
  AudioChannels: 6,
  AudioLanguage: 'eng',
  Container: 'mkv',
};
const stream = { VideoCodec: 'h264', Height: 720 };
const serverStreams = [
  { Type: 'Video', Codec: 'hevc', Width: 3840, Height: 2160, Index: 0 },
  { Type: 'Audio', Codec: 'eac3', Channels: 6, Language: 'eng', Index: 1 },
];

describe('history row streams', () => {
  it('answers the recorded server streams and container, and the comparison on its own', () => {
    expect(
      historyStreams({
        Source: source,
        Stream: stream,
        ReportedPlayMethod: 'Transcode',
        MediaStreams: serverStreams,
        OriginalContainer: 'mkv',
      }),
    ).toEqual({
      MediaStreams: serverStreams,
      OriginalContainer: 'mkv',
      StreamDetails: { Source: source, Stream: stream, ReportedPlayMethod: 'Transcode' },
    });
  });

  it('rebuilds a video and an audio stream for rows that kept only the comparison', () => {
    const answer = historyStreams({ Source: source, Stream: stream });
    expect(answer.MediaStreams).toEqual([
      { Type: 'Video', Codec: 'hevc', Width: 3840, Height: 2160, RealFrameRate: undefined, VideoRange: undefined, AspectRatio: undefined },
      { Type: 'Audio', Codec: 'eac3', Channels: 6, Language: 'eng' },
    ]);
    expect(answer.OriginalContainer).toBe('mkv');
    expect(answer.StreamDetails).toEqual({ Source: source, Stream: stream });
  });

  it('passes an imported stream array through, with its comparison worked out; nothing as nulls', () => {
    expect(historyStreams(serverStreams)).toEqual({
      MediaStreams: serverStreams,
      OriginalContainer: null,
      StreamDetails: {
        Source: { VideoCodec: 'hevc', Width: 3840, Height: 2160, AudioCodec: 'eac3', AudioChannels: 6, AudioLanguage: 'eng' },
        Stream: { VideoCodec: 'hevc', Width: 3840, Height: 2160, AudioCodec: 'eac3', AudioChannels: 6, AudioLanguage: 'eng' },
      },
    });
    expect(historyStreams(null)).toEqual({ MediaStreams: null, OriginalContainer: null, StreamDetails: null });
  });

  it('an imported transcode: the stream side from the transcoding info, direct audio kept from the source', () => {
    const streams = [
      { Type: 'Video', Codec: 'hevc', Height: 2160, BitRate: 20_000_000 },
      { Type: 'Audio', Codec: 'eac3', Channels: 6, Language: 'eng' },
    ];
    const transcodingInfo = {
      IsVideoDirect: false,
      IsAudioDirect: true,
      VideoCodec: 'h264',
      Height: 720,
      Bitrate: 4_000_000,
      TranscodeReasons: ['VideoCodecNotSupported'],
    };
    const { StreamDetails } = historyStreams(streams, { playMethod: 'Transcode', transcodingInfo });
    expect(StreamDetails).toMatchObject({
      Source: { VideoCodec: 'hevc', Height: 2160, Bitrate: 20_000_000, AudioCodec: 'eac3' },
      Stream: { VideoCodec: 'h264', Height: 720, Bitrate: 4_000_000, AudioCodec: 'eac3', TranscodeReasons: ['VideoCodecNotSupported'] },
    });
    // A direct play of the same file: the client receives the source.
    const direct = historyStreams(streams, { playMethod: 'DirectPlay', transcodingInfo });
    expect(direct.StreamDetails!.Stream).toEqual(direct.StreamDetails!.Source);
  });
});
