import { describe, expect, it } from 'vitest';
import { queryHistory, type HistoryRequest } from '../../history/history-query.js';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { deletePlays } from '../../history/delete-plays.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { totalsDelta } from '../../history/rollup-sql.js';
import { SEARCH_TERMS_BACKFILL_SQL } from '../../history/search-terms.js';
import { playMethodWindow } from '../../stats/scope-queries.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { storageSecondPass } from './0026-storage-second-pass.js';

const CLIENTS = ['Jellyfin Web', 'Kodi', null];
const METHODS = ['DirectPlay', 'DirectStream', 'Transcode'] as const;
const LIBRARIES = ['movies', 'shows', null];

describe('migration 0026: history indexes and rollups without what no reader needs', () => {
  const setting = beforeMigration(storageSecondPass);
  const { serverId } = setting;
  const page = (sort: HistoryRequest['sort'], desc: boolean, filters: HistoryRequest['filters'] = {}) =>
    queryHistory(setting.db(), serverId, { scope: { kind: 'all' }, page: 1, size: 100, search: '', sort, desc, filters }).then((answer) =>
      answer.results.flatMap((row) => (row.results.length ? row.results : [row]).map((play) => play.Id)),
    );
  // Libraries as the API names them (a play outside every library is in no library's figures).
  const WINDOWS = [1, 24 * 3, 24 * 400].flatMap((hours) => ['movies', 'shows'].map((library) => ({ hours, library })));
  /** A library's playback methods over the last hours, counted from the history itself (the readers' oracle). */
  const methodWindowsFromHistory = () =>
    Promise.all(
      WINDOWS.map(async ({ hours, library }) => {
        const rows = await setting.db().query<{ Key: string; Count: number; Duration: number }>(
          `SELECT play_method AS "Key", count(*)::int AS "Count", sum(played_seconds)::int AS "Duration" FROM playback_history
           WHERE server_id = $1 AND library_id = $2 AND started_at >= now() - make_interval(hours => $3)
           GROUP BY 1 ORDER BY 1`,
          [serverId, library, hours],
        );
        return { stats: rows, types: rows.map((row) => row.Key) };
      }),
    );
  /** What the readers of the changed indexes answer. */
  const answers = async () => ({
    pages: await Promise.all(
      [false, true].flatMap((desc) => [
        page('PlayMethod', desc),
        page('Client', desc),
        page('ActivityDateInserted', desc, { playMethods: ['Transcode'] }),
        page('ActivityDateInserted', desc, { playMethods: ['DirectPlay', 'DirectStream'] }),
      ]),
    ),
    firstMonitored: await setting
      .db()
      .query(`SELECT min(started_at) AS at FROM playback_history WHERE server_id = $1 AND source = 'monitor'`, [serverId]),
  });

  it('sums the rollups over their clients, keeps every level exact and every reader answering the same, and drops the indexes', async () => {
    const db = setting.db();
    // Plays as the writer before 0026 stored them: rollups per client too.
    const now = Date.now();
    for (let i = 0; i < 120; i += 1) {
      await db.query(
        `INSERT INTO playback_history (server_id, play_key, source, user_id, user_name, item_id, item_name, library_id, client, play_method,
           started_at, ended_at, played_seconds)
         VALUES ($1, $2, $3, $4, 'User', 'item', 'Item', $5, $6, $7, $8, $8, $9)`,
        [
          serverId,
          `old-${i}`,
          i < 10 ? 'playback_reporting' : 'monitor',
          `u${i % 4}`,
          LIBRARIES[(i >> 2) % 3],
          CLIENTS[i % 3],
          METHODS[(i >> 3) % 3],
          // Four plays a few seconds apart (one quarter hour, library and method; three clients), every 47 minutes.
          new Date(now - (30 - (i >> 2)) * 47 * 60_000 - 61_000 - (i % 4) * 5_000),
          10 + i,
        ],
      );
    }
    await db.query(`INSERT INTO play_rollups (server_id, bucket, library_id, client, play_method, plays, played_seconds)
      SELECT server_id, to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900), COALESCE(library_id, ''), COALESCE(client, ''),
        play_method, count(*), sum(played_seconds)
      FROM playback_history GROUP BY 1, 2, 3, 4, 5`);
    await db.query(`INSERT INTO play_totals (server_id, scope, key, plays, played_seconds) ${totalsDelta('playback_history')}`);
    await db.query(SEARCH_TERMS_BACKFILL_SQL);
    const [{ clients }] = (await db.query<{ clients: number }>(
      `SELECT count(*)::int AS clients FROM (SELECT DISTINCT bucket, library_id, play_method FROM play_rollups GROUP BY 1, 2, 3 HAVING count(*) > 1) AS x`,
    )) as [{ clients: number }];
    expect(clients).toBeGreaterThan(0);
    const before = await answers();
    const methodWindows = await methodWindowsFromHistory();

    await storageSecondPass.up(setting.context());

    expect(await answers()).toEqual(before);
    // Today's invariant check and the method windows' reader know the later migrations' levels (0027's month ×
    // method, built from the daily level 0026 leaves): with them, every level is exact and the reader answers
    // what the history holds.
    await setting.applyLater();
    expect(await findRollupDifferences(db)).toEqual([]);
    expect(await Promise.all(WINDOWS.map(({ hours, library }) => playMethodWindow(db, serverId, library, hours)))).toEqual(methodWindows);
    const columns = await db.query<{ table_name: string }>(
      `SELECT table_name::text FROM information_schema.columns WHERE table_name IN ('play_rollups', 'play_rollups_daily') AND column_name = 'client'`,
    );
    expect(columns).toEqual([]);
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('playback_history', 'play_rollups_daily') ORDER BY 1`,
    );
    const names = indexes.map((index) => index.indexname);
    for (const gone of ['history_play_method', 'history_client', 'history_monitor_started', 'play_rollups_daily_library']) {
      expect(names).not.toContain(gone);
    }
    const definition = (name: string) => indexes.find((index) => index.indexname === name)?.indexdef;
    expect(definition('history_started_cover')).toMatch(/INCLUDE \(.*source\) WITH \(fillfactor='100'\)/);
    for (const name of ['playback_history_pkey', 'history_user_cover', 'history_item_started', 'history_season_started']) {
      expect(definition(name)).toMatch(/fillfactor='100'/);
    }

    // Writes and deletes after it keep every level (the recreated triggers feed the daily and the charts' levels).
    const play = (key: string, minutesAgo: number, client: string, playMethod: PlayToRecord['playMethod']): PlayToRecord => ({
      serverId,
      playKey: key,
      source: 'monitor',
      userId: 'u1',
      userName: 'User',
      itemId: 'item',
      itemName: 'Item',
      libraryId: 'movies',
      client,
      playMethod,
      startedAt: new Date(now - minutesAgo * 60_000),
      endedAt: new Date(now - minutesAgo * 60_000 + 77_000),
      playedSeconds: 77,
    });
    expect(await recordPlays(db, [play('new-1', 30, 'Kodi', 'Transcode'), play('new-2', 31, 'Infuse', 'Transcode')])).toBe(2);
    await recordPlays(db, [{ ...play('new-1', 30, 'Kodi', 'Transcode'), playedSeconds: 500, endedAt: new Date(now) }]);
    expect(await deletePlays(db, serverId, `h.play_key IN ('old-100', 'new-2')`, [])).toBe(2);
    expect(await findRollupDifferences(db)).toEqual([]);
    const [window] = (await playMethodWindow(db, serverId, 'movies', 1)).stats;
    expect(window).toEqual({ Key: 'Transcode', Count: 1, Duration: 500 });
  });
});
