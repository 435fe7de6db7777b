import { describe, expect, it } from 'vitest';
import { queryHistory, toRecord, type HistoryRequest, type HistoryRow } from '../../history/history-query.js';
import { recordPlays } from '../../history/record-plays.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { streamDetailsDictionary } from './0022-stream-details-dictionary.js';

const DIRECT = {
  Source: { Bitrate: 8_000_000, VideoCodec: 'h264' },
  Stream: { Bitrate: 8_000_000, VideoCodec: 'h264' },
  MediaStreams: [{ Type: 'Video', Codec: 'h264', Index: 0 }],
  ReportedPlayMethod: 'DirectPlay',
};
const TRANSCODED = {
  Source: { VideoCodec: 'hevc' },
  Stream: { VideoCodec: 'h264', TranscodeReasons: ['VideoCodecNotSupported'] },
  OriginalContainer: 'mkv',
};
const TRANSCODE = { VideoCodec: 'h264', IsVideoDirect: false, Bitrate: 4_000_000, TranscodeReasons: ['VideoCodecNotSupported'] };

describe('migration 0022: stream details and transcode info stored once per distinct value', () => {
  const setting = beforeMigration(streamDetailsDictionary);
  const { serverId, context } = setting;
  const request: HistoryRequest = {
    scope: { kind: 'all' },
    page: 1,
    size: 100,
    search: '',
    sort: 'ActivityDateInserted',
    desc: true,
    filters: {},
  };

  it('converts old rows: the history API answers the same payloads, each distinct value is stored once, new writes reuse it', async () => {
    const db = setting.db();
    // Rows as the writer stored them before 0022: the JSON inline, in every combination (and key orders that jsonb makes one).
    const values = [
      [DIRECT, null, 'DirectPlay'],
      [{ ...DIRECT }, null, 'DirectPlay'],
      [TRANSCODED, TRANSCODE, 'Transcode'],
      [
        TRANSCODED,
        { TranscodeReasons: TRANSCODE.TranscodeReasons, Bitrate: 4_000_000, IsVideoDirect: false, VideoCodec: 'h264' },
        'Transcode',
      ],
      [null, null, 'DirectStream'],
      [null, TRANSCODE, 'Transcode'],
    ] as const;
    for (const [i, [details, transcoding, method]] of values.entries()) {
      await db.query(
        `INSERT INTO playback_history (server_id, play_key, user_id, user_name, item_id, item_name, play_method, stream_details, transcoding_info,
           started_at, ended_at, played_seconds)
         VALUES ($1, $2, $3, 'User', 'item', 'Item', $4, $5::jsonb, $6::jsonb, $7, $7, 60)`,
        [
          serverId,
          `old-${i}`,
          `u${i}`,
          method,
          details && JSON.stringify(details),
          transcoding && JSON.stringify(transcoding),
          new Date(Date.UTC(2026, 0, 1, i)),
        ],
      );
    }
    const before = await db.query<HistoryRow>(
      `SELECT id, user_id, user_name, remote_end_point, series_id, series_name, season_number, episode_number, item_id, item_name,
         client, play_method, device_name, started_at, played_seconds, transcoding_info, stream_details, library_id
       FROM playback_history ORDER BY started_at DESC`,
    );

    await streamDetailsDictionary.up(context());

    const after = await queryHistory(db, serverId, request);
    expect(after.results).toEqual(before.map(toRecord));
    expect(after.results.filter((r) => r.TranscodingInfo !== null)).toHaveLength(3);
    const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM play_json_values')) as [{ n: number }];
    expect(n).toBe(3);
    const columns = await db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_name = 'playback_history' AND column_name ~ '^(stream_details|transcoding_info)' ORDER BY 1`,
    );
    expect(columns).toEqual([
      { column_name: 'stream_details_id', data_type: 'integer' },
      { column_name: 'transcoding_info_id', data_type: 'integer' },
    ]);

    // Later migrations are part of the schema the new writer expects.
    await setting.applyLater();
    await recordPlays(db, [
      {
        serverId,
        playKey: 'new',
        source: 'monitor',
        userId: 'u9',
        userName: 'User',
        itemId: 'item',
        itemName: 'Item',
        playMethod: 'Transcode',
        streamDetails: TRANSCODED,
        transcodingInfo: TRANSCODE,
        startedAt: new Date('2026-02-01T00:00:00Z'),
        playedSeconds: 30,
      },
    ]);
    const [{ n: still }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM play_json_values')) as [{ n: number }];
    expect(still).toBe(3);
    const [newest] = (await queryHistory(db, serverId, request)).results;
    expect(newest).toMatchObject({ UserId: 'u9', TranscodingInfo: TRANSCODE });
  });
});
