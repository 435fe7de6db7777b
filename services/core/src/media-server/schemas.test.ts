// DTO validation rules on payloads shaped like the contract's fixtures: nulls become undefined, unknown fields
// are dropped, wrong types fail with the field's path, lenient where the servers differ.
import { describe, expect, it } from 'vitest';
import { baseItemDtoSchema } from './schemas/item.js';
import { customQueryResponseSchema } from './schemas/playback-reporting.js';
import { sessionInfoSchema } from './schemas/session.js';
import { publicSystemInfoSchema } from './schemas/system-info.js';
import { userDtoSchema } from './schemas/user.js';
import { describeIssues, parseWireJson } from './schemas/wire.js';

describe('wire schemas', () => {
  it('an idle Jellyfin 10.11 session (as in the demo-server capture) parses; Guid.Empty user becomes undefined', () => {
    const wire = parseWireJson(
      JSON.stringify({
        PlayState: { CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: 'RepeatNone', PlaybackOrder: 'Default' },
        AdditionalUsers: [],
        Capabilities: { PlayableMediaTypes: [], SupportedCommands: [], SupportsMediaControl: false },
        RemoteEndPoint: '203.0.113.7',
        PlayableMediaTypes: [],
        Id: '0c1e3cae3d3f6b3e4a5c0e0f1a2b3c4d',
        UserId: '00000000000000000000000000000000',
        Client: 'Jellyfin Web',
        LastActivityDate: '2026-01-23T00:02:44.4648009Z',
        LastPlaybackCheckIn: '0001-01-01T00:00:00.0000000Z',
        DeviceName: 'Firefox',
        NowPlayingItem: null,
        IsActive: true,
      }),
    );
    const session = sessionInfoSchema.parse(wire);
    expect(session.UserId).toBeUndefined();
    expect(session.NowPlayingItem).toBeUndefined();
    expect(session.PlayState).toEqual({
      CanSeek: false,
      IsPaused: false,
      IsMuted: false,
      RepeatMode: 'RepeatNone',
      PlaybackOrder: 'Default',
    });
    expect('Capabilities' in session).toBe(false);
  });

  it('TranscodeReasons: an array of strings, unknown values kept; an old comma string is split', () => {
    const base = { Id: 'a'.repeat(32), TranscodingInfo: { IsVideoDirect: true, IsAudioDirect: false } };
    const now = sessionInfoSchema.parse({
      ...base,
      TranscodingInfo: { ...base.TranscodingInfo, TranscodeReasons: ['AudioCodecNotSupported', 'VideoRotationNotSupported'] },
    });
    expect(now.TranscodingInfo?.TranscodeReasons).toEqual(['AudioCodecNotSupported', 'VideoRotationNotSupported']);
    const old = sessionInfoSchema.parse({
      ...base,
      TranscodingInfo: { ...base.TranscodingInfo, TranscodeReasons: 'ContainerNotSupported, AudioCodecNotSupported' },
    });
    expect(old.TranscodingInfo?.TranscodeReasons).toEqual(['ContainerNotSupported', 'AudioCodecNotSupported']);
  });

  it('a MediaSource with HDR streams (Jellyfin test-data shape) parses', () => {
    const item = baseItemDtoSchema.parse({
      Id: 'b'.repeat(32),
      Type: 'Movie',
      MediaSources: [
        {
          Protocol: 'File',
          Id: 'b'.repeat(32),
          Container: 'mkv',
          Size: 15_200_000_000,
          Bitrate: 15_200_000,
          MediaStreams: [
            {
              Codec: 'hevc',
              CodecTag: 'dvhe',
              Type: 'Video',
              Index: 0,
              Width: 3840,
              Height: 2160,
              VideoRange: 'HDR',
              VideoRangeType: 'DOVIWithHDR10',
              DvProfile: 8,
              Level: 153,
              AverageFrameRate: 23.976025,
              IsInterlaced: false,
            },
            {
              Codec: 'eac3',
              Type: 'Audio',
              Index: 1,
              Channels: 6,
              ChannelLayout: '5.1',
              AudioSpatialFormat: 'DolbyAtmos',
              Language: 'eng',
              IsDefault: true,
            },
          ],
        },
      ],
    });
    expect(item.MediaSources?.[0]?.MediaStreams?.map((s) => [s.Type, s.Codec])).toEqual([
      ['Video', 'hevc'],
      ['Audio', 'eac3'],
    ]);
  });

  it('wrong types fail with the path; required fields are named', () => {
    const bad = baseItemDtoSchema.safeParse({ Id: 'x', Type: 'Episode', IndexNumber: 1.5, UserData: { PlayCount: '3' } });
    expect(bad.success).toBe(false);
    expect(describeIssues(bad.error!)).toBe(
      'IndexNumber: expected int, received number; UserData.PlayCount: expected number, received string',
    );
    const user = userDtoSchema.safeParse({ Id: 'u', Policy: {} });
    expect(describeIssues(user.error!)).toBe('Policy.IsAdministrator: expected boolean, received undefined');
    expect(describeIssues(publicSystemInfoSchema.safeParse([]).error!)).toBe('expected object, received array');
  });

  it('parseWireJson removes nulls at every depth exactly as a reviver returning undefined does', () => {
    const text = JSON.stringify({
      a: null,
      b: 1,
      c: { d: null, e: [1, null, { f: null, g: 'x' }, [null]], h: {} },
      i: [null, null],
      j: '',
      k: false,
      l: 0,
    });
    const reviver = JSON.parse(text, (_key, value: unknown) => (value === null ? undefined : value)) as unknown;
    const parsed = parseWireJson(text);
    expect(parsed).toStrictEqual(reviver);
    expect(Object.keys(parsed as object)).toEqual(['b', 'c', 'i', 'j', 'k', 'l']);
    const array = (parsed as { c: { e: unknown[] } }).c.e;
    expect(1 in array).toBe(false);
    expect(array).toHaveLength(4);
    for (const edge of ['null', '[null]', '[[null],null]', '"text"', '3'])
      expect(parseWireJson(edge)).toStrictEqual(JSON.parse(edge, (_key, value: unknown) => (value === null ? undefined : value)));
  });

  it('Playback Reporting: NULL cells read as empty strings, numbers are refused', () => {
    const ok = customQueryResponseSchema.parse(parseWireJson('{"colums":["a","b"],"results":[["1",null]],"message":""}'));
    expect(ok.results).toEqual([['1', '']]);
    const bad = customQueryResponseSchema.safeParse({ colums: ['a'], results: [[1]] });
    expect(describeIssues(bad.error!)).toBe('results[0][0]: expected string, received number');
  });
});
