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

  it('does not derive them from the stream list (the server does): a row without them shows empty facts', () => {
    const row = { ...base, PlayMethod: 'DirectPlay', MediaStreams: [{ Type: 'Video', Codec: 'h264', Height: 1080 }] } as PlaybackActivity;
    expect(streamFacts(row)).toEqual({ Source: {}, Stream: {} });
    expect(streamFacts({ ...base, StreamDetails: null })).toEqual({ Source: {}, Stream: {} });
  });
});
