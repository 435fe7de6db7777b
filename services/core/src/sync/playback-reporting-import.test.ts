import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import type { Database } from '../db/database.js';
import { recordPlays } from '../history/record-plays.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { playbackReportingRecords } from '../media-server/schemas/playback-reporting.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import type { TestDatabase } from '../test-support/test-services.js';
import { LibrarySync } from './library-sync.js';
import { importPlaybackReporting } from './playback-reporting-import.js';
import { clientFor } from './sync-context.js';
import { linkSimulator, recordingReporter, syncTestDatabase } from './sync-test-helpers.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

describe.each(['jellyfin', 'emby'] as const)('Playback Reporting import (%s)', (flavor) => {
  let sim: Simulator;
  let database: TestDatabase;
  let db: Database;
  let link: MediaServerLink;
  const importNow = () => importPlaybackReporting(db, link, clientFor(link), recordingReporter());
  const pluginTotals = async () => {
    const [row] = playbackReportingRecords(
      await clientFor(link).submitPlaybackReportingQuery('SELECT count(*) AS n, sum(PlayDuration) AS seconds FROM PlaybackActivity'),
    );
    return { plays: Number(row!.n), seconds: Number(row!.seconds) };
  };
  const historyTotals = async () => {
    const [row] = await db.query<{ plays: number; seconds: number }>(
      `SELECT count(*)::int AS plays, COALESCE(sum(played_seconds), 0)::int AS seconds FROM playback_history
       WHERE server_id = $1 AND source = 'playback_reporting'`,
      [link.id],
    );
    return row!;
  };

  beforeAll(async () => {
    sim = await startSimulator({ flavor, scale: 'tiny', seed: 5 });
    ({ database, db } = await syncTestDatabase());
    link = await linkSimulator(db, sim, flavor);
    await new LibrarySync(db, link, clientFor(link), recordingReporter()).full();
    const users = sim.control.users().filter((u) => !u.isDisabled && u.enableAllFolders);
    const episodes = sim.control.itemIds('Episode', 4);
    const movies = sim.control.itemIds('Movie', 2);
    const tracks = sim.control.itemIds('Audio', 2);
    const items = [...episodes, ...movies, ...tracks];
    for (const [i, itemId] of items.entries()) {
      const play = sim.control.startPlay({
        userId: users[i % users.length]!.id,
        itemId,
        autoplay: false,
        method: i % 3 === 0 ? 'Transcode' : 'DirectPlay',
      });
      sim.control.advance(45_000 + i * 10_000);
      sim.control.stop(play.playId);
      sim.control.advance(5_000);
    }
  });
  afterAll(async () => {
    await sim.stop();
    await db.close();
    await database.drop();
  });

  it('imports every plugin row once: totals equal the plugin table, episodes map to their series, a second run adds nothing', async () => {
    const plugin = await pluginTotals();
    expect(plugin.plays).toBe(8);
    const first = await importNow();
    expect(first).toMatchObject({ read: 8, imported: 8 });
    expect(await historyTotals()).toEqual(plugin);

    const episodes = await db.query<{ item_id: string; series_id: string | null; season_number: number | null; library_id: string | null }>(
      `SELECT item_id, series_id, season_number, library_id FROM playback_history WHERE server_id = $1 AND item_type = 'Episode'`,
      [link.id],
    );
    expect(episodes).toHaveLength(4);
    for (const row of episodes) {
      const item = sim.control.item(row.item_id)!;
      expect(row.series_id).toBe(item.seriesId);
      expect(row.season_number).toBe(item.parentIndexNumber);
      expect(row.library_id).toBe(item.libraryId);
    }
    const transcodes = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM playback_history WHERE server_id = $1 AND play_method = 'Transcode'`,
      [link.id],
    );
    expect(transcodes[0]!.n).toBe(3);
    // The play-method rule is applied as the rows are written: Emby's direct plays are stored as DirectStream.
    const [direct] = playbackReportingRecords(
      await clientFor(link).submitPlaybackReportingQuery(
        `SELECT count(*) AS n FROM PlaybackActivity WHERE PlaybackMethod LIKE 'DirectPlay%'`,
      ),
    );
    const [stored] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM playback_history WHERE server_id = $1 AND play_method = 'DirectPlay'`,
      [link.id],
    );
    expect(Number(direct!.n)).toBeGreaterThan(0);
    expect(stored!.n).toBe(flavor === 'jellyfin' ? Number(direct!.n) : 0);

    expect(await importNow()).toMatchObject({ read: 0, imported: 0 });
    // Even read again from the start (a lost cursor, a recreated plugin table), nothing is added twice.
    await db.query('DELETE FROM sync_cursors WHERE server_id = $1 RETURNING 1', [link.id]);
    expect(await importNow()).toMatchObject({ read: 8, imported: 0 });
    expect(await historyTotals()).toEqual(plugin);
    expect(await findRollupDifferences(db)).toEqual([]);
  });

  it("stops where the activity monitor's own history begins", async () => {
    const before = sim.control.clock.now();
    const user = sim.control.users()[0]!;
    const itemId = sim.control.itemIds('Movie', 3)[2]!;
    sim.control.advance(60_000);
    const play = sim.control.startPlay({ userId: user.id, itemId, autoplay: false });
    sim.control.advance(30_000);
    sim.control.stop(play.playId);
    // The monitor recorded a play that started before that one: the plugin's copy is left to the monitor.
    await recordPlays(db, [
      {
        serverId: link.id,
        playKey: 'monitor-1',
        source: 'monitor',
        userId: user.id,
        userName: user.name,
        itemId,
        itemName: 'x',
        playMethod: 'DirectPlay',
        startedAt: new Date(before + 1_000),
        playedSeconds: 30,
      },
    ]);
    expect(await importNow()).toMatchObject({ read: 0, imported: 0 });
  });
});
