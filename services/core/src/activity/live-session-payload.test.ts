// The `sessions` event payload and the play-method naming rule.
import { describe, expect, it } from 'vitest';
import { sessionInfoSchema, type SessionInfo } from '../media-server/schemas/session.js';
import { liveSessionsPayload } from './live-session-payload.js';
import { displayPlayMethod } from './play-method.js';

const session = (id: string, playing: boolean, method?: string): SessionInfo =>
  sessionInfoSchema.parse({
    Id: id,
    UserId: 'u1',
    UserName: 'alice',
    Client: 'Jellyfin Web',
    DeviceName: 'Firefox',
    RemoteEndPoint: '10.0.0.2',
    PlayState: playing ? { PositionTicks: 50, IsPaused: true, PlayMethod: method } : { IsPaused: false },
    NowPlayingItem: playing
      ? {
          Id: `item-${id}`,
          Type: 'Episode',
          Name: 'Pilot',
          SeriesName: 'Show',
          ParentIndexNumber: 1,
          IndexNumber: 2,
          MediaStreams: [
            { Type: 'Video', Index: 0, Codec: 'hevc', BitRate: 8_000_000, Width: 3840, Height: 2160 },
            { Type: 'Audio', Index: 1, Codec: 'eac3', BitRate: 640_000, Channels: 6 },
          ],
        }
      : undefined,
  });

describe('liveSessionsPayload', () => {
  it('keeps only sessions that play something, sorted by Id, in the SPEC.md Session shape', () => {
    const payload = liveSessionsPayload(
      [session('c', true, 'DirectPlay'), session('a', false), session('b', true, 'Transcode')],
      'jellyfin',
      'srv',
    );
    expect(payload.map((s) => s.Id)).toEqual(['b', 'c']);
    expect(payload[1]).toEqual({
      Id: 'c',
      UserId: 'u1',
      UserName: 'alice',
      Client: 'Jellyfin Web',
      DeviceName: 'Firefox',
      RemoteEndPoint: '10.0.0.2',
      ServerId: 'srv',
      PlayState: { PositionTicks: 50, IsPaused: true, PlayMethod: 'DirectPlay' },
      NowPlayingItem: {
        Id: 'item-c',
        Type: 'Episode',
        Name: 'Pilot',
        SeriesName: 'Show',
        ParentIndexNumber: 1,
        IndexNumber: 2,
        Bitrate: 8_640_000,
        MediaStreams: [
          { Type: 'Video', Index: 0, Codec: 'hevc', BitRate: 8_000_000, Width: 3840, Height: 2160 },
          { Type: 'Audio', Index: 1, Codec: 'eac3', BitRate: 640_000, Channels: 6 },
        ],
      },
    });
  });

  it('shows DirectPlay as DirectStream on Emby (SPEC.md naming rule)', () => {
    expect(liveSessionsPayload([session('a', true, 'DirectPlay')], 'emby', 'srv')[0]!.PlayState.PlayMethod).toBe('DirectStream');
    expect(displayPlayMethod('emby', 'Transcode', true)).toBe('Transcode');
    expect(displayPlayMethod('jellyfin', 'DirectStream', false)).toBe('DirectStream');
    expect(displayPlayMethod('jellyfin', undefined, true)).toBe('Transcode');
    expect(displayPlayMethod('jellyfin', undefined, false)).toBe('DirectPlay');
  });
});
