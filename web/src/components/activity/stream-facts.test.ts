import { describe, expect, it } from 'vitest';
import { streamFacts } from './StreamDetailsModal';
import type { PlaybackActivity } from '../../api/types';

const base = { Id: 1, UserName: 'a', UserId: 'u', ActivityDateInserted: '2026-01-01T00:00:00Z' } as unknown as PlaybackActivity;

describe('stream details', () => {
  it('uses the recorded {Source, Stream} facts (StreamDetails) as they are', () => {
    const row = {
      ...base,
      PlayMethod: 'Transcode',
      MediaStreams: [{ Type: 'Video', Codec: 'av1', Height: 480 }],
      StreamDetails: { Source: { VideoCodec: 'hevc', Height: 2160 }, Stream: { VideoCodec: 'h264', Height: 720 } },
    };
    expect(streamFacts(row)).toEqual({ Source: { VideoCodec: 'hevc', Height: 2160 }, Stream: { VideoCodec: 'h264', Height: 720 } });
  });

  it('derives them from a stream list and the transcoding info', () => {
    const row = {
      ...base,
      PlayMethod: 'Transcode',
      TranscodingInfo: {
        IsVideoDirect: false,
        IsAudioDirect: true,
        VideoCodec: 'h264',
        Height: 720,
        Bitrate: 4_000_000,
        TranscodeReasons: ['VideoCodecNotSupported'],
      },
      OriginalContainer: 'mkv',
      MediaStreams: [
        { Type: 'Video', Codec: 'hevc', Height: 2160, BitRate: 20_000_000 },
        { Type: 'Audio', Codec: 'eac3', Channels: 6, Language: 'eng' },
      ],
    } as PlaybackActivity;
    const { Source, Stream } = streamFacts(row);
    expect(Source).toMatchObject({ VideoCodec: 'hevc', Height: 2160, Bitrate: 20_000_000, AudioCodec: 'eac3', Container: 'mkv' });
    expect(Stream).toMatchObject({
      VideoCodec: 'h264',
      Height: 720,
      Bitrate: 4_000_000,
      AudioCodec: 'eac3',
      TranscodeReasons: ['VideoCodecNotSupported'],
    });
  });

  it('a direct play streams the source unchanged; missing details give empty facts', () => {
    const row = { ...base, PlayMethod: 'DirectPlay', MediaStreams: [{ Type: 'Video', Codec: 'h264', Height: 1080 }] } as PlaybackActivity;
    expect(streamFacts(row).Stream).toEqual(streamFacts(row).Source);
    expect(streamFacts({ ...base, MediaStreams: null }).Source.VideoCodec).toBeUndefined();
  });
});
