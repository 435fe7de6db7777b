// Test support for the activity monitor: a real PostgreSQL database, the simulator on its virtual clock and a
// ServerMonitor whose clock is the simulator's, polled by the test between clock steps.
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { openDatabase, type Database } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { InProcessBus } from '../../bus/in-process-bus.js';
import { AppSettings } from '../../settings/app-settings.js';
import { createMediaServerClient } from '../../media-server/create-client.js';
import { createTestDatabase, testLogger, type TestDatabase } from '../../test-support/test-services.js';
import { ActivityMetrics } from '../activity-metrics.js';
import { PLAYBACK_ENDED_CHANNEL, PLAYBACK_STARTED_CHANNEL, type PlaybackEvent } from '../playback-events.js';
import { ServerMonitor } from '../server-monitor.js';
import { ACTIVITY_RECORDING_LIMITS } from '@reelstat/contract';
import { findRollupDifferences, type RollupDifference } from '../../history/rollup-invariant.js';
import { historyJsonColumns } from '../../history/json-values.js';

export const SIM_START = Date.UTC(2026, 5, 1, 20, 0, 0);
export const TICKS = 10_000_000;

export interface HistoryRow {
  play_key: string;
  user_id: string;
  user_name: string;
  item_id: string;
  item_name: string;
  item_type: string | null;
  series_id: string | null;
  season_number: number | null;
  episode_number: number | null;
  library_id: string | null;
  client: string | null;
  device_name: string | null;
  device_id: string | null;
  application_version: string | null;
  remote_end_point: string | null;
  play_method: string;
  transcoding_info: Record<string, unknown> | null;
  stream_details: Record<string, unknown> | null;
  started_at: Date;
  ended_at: Date | null;
  played_seconds: number;
  paused_seconds: number;
  start_position_ticks: number | null;
  end_position_ticks: number | null;
  run_time_ticks: number | null;
}

export interface ActivityHarness {
  sim: RunningSimulator;
  db: Database;
  serverId: string;
  kind: 'jellyfin' | 'emby';
  settings: AppSettings;
  metrics: ActivityMetrics;
  registry: Registry;
  events: { started: PlaybackEvent[]; ended: PlaybackEvent[] };
  monitor: ServerMonitor;
  /** A fresh monitor on the same database, as after a Reelstat restart or a failover. */
  newMonitor(): ServerMonitor;
  /** Advances the simulator clock by `ms` in steps of `stepMs`, polling after each step. */
  run(ms: number, stepMs?: number, monitor?: ServerMonitor): Promise<void>;
  history(): Promise<HistoryRow[]>;
  liveCount(): Promise<number>;
  /** The rollup invariant (history/rollup-invariant.ts): empty when the statistics equal the history. */
  rollupDifferences(): Promise<RollupDifference[]>;
  close(): Promise<void>;
}

export async function startActivityHarness(
  kind: 'jellyfin' | 'emby',
  options: { seed?: number; scale?: 'tiny' | 'small'; minimumPlaySeconds?: number; mergeWindowMinutes?: number } = {},
): Promise<ActivityHarness> {
  const database: TestDatabase = await createTestDatabase();
  const db = openDatabase(database.url, testLogger);
  await migrateToLatest(db, testLogger);
  const sim = await startSimulator({
    flavor: kind,
    clock: 'virtual',
    startTime: SIM_START,
    scale: options.scale ?? 'tiny',
    seed: options.seed ?? 1,
  });
  const serverId = randomUUID();
  await db.query(
    `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, 'sim', $2, $3, 'sealed', true)`,
    [serverId, kind, sim.url],
  );
  const settings = new AppSettings(db);
  await settings.set('ACTIVITY_RECORDING_RULES', {
    // The product's defaults (30 s, 10 min) unless a test says otherwise.
    minimumPlaySeconds: options.minimumPlaySeconds ?? ACTIVITY_RECORDING_LIMITS.minimumPlaySeconds.default,
    mergeWindowMinutes: options.mergeWindowMinutes ?? ACTIVITY_RECORDING_LIMITS.mergeWindowMinutes.default,
  });
  const registry = new Registry();
  const metrics = ActivityMetrics.of(registry);
  const bus = new InProcessBus();
  const events = { started: [] as PlaybackEvent[], ended: [] as PlaybackEvent[] };
  await bus.subscribe<PlaybackEvent>(PLAYBACK_STARTED_CHANNEL, (event) => events.started.push(event));
  await bus.subscribe<PlaybackEvent>(PLAYBACK_ENDED_CHANNEL, (event) => events.ended.push(event));
  const client = createMediaServerClient({ kind, url: sim.url, apiKey: sim.apiKey, retries: 0 });
  const newMonitor = () =>
    new ServerMonitor({
      db,
      bus,
      logger: testLogger,
      settings,
      metrics,
      server: { id: serverId, name: 'sim', kind },
      client,
      now: () => sim.control.clock.now(),
    });
  const harness: ActivityHarness = {
    sim,
    db,
    serverId,
    kind,
    settings,
    metrics,
    registry,
    events,
    monitor: newMonitor(),
    newMonitor,
    async run(ms, stepMs = 1000, monitor = harness.monitor) {
      for (let done = 0; done < ms; done += stepMs) {
        sim.control.advance(Math.min(stepMs, ms - done));
        await monitor.pollOnce();
      }
    },
    history: () =>
      db.query<HistoryRow>(`SELECT h.*, ${historyJsonColumns('h')} FROM playback_history h WHERE server_id = $1 ORDER BY started_at, id`, [
        serverId,
      ]),
    async liveCount() {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions WHERE server_id = $1', [serverId]);
      return row?.n ?? 0;
    },
    rollupDifferences: () => findRollupDifferences(db),
    async close() {
      await sim.stop();
      await bus.close();
      await db.close();
      await database.drop();
    },
  };
  return harness;
}

/** A movie at least `minutes` long. */
export function movieLongerThan(sim: RunningSimulator, minutes: number, skip = 0): string {
  const ids = sim.control.itemIds('Movie').filter((id) => (sim.control.item(id)?.runTimeTicks ?? 0) > minutes * 60 * TICKS);
  const id = ids[skip];
  if (!id) throw new Error(`no movie longer than ${minutes} minutes`);
  return id;
}

/** A regular user (not the admin) of the simulator. */
export function viewer(sim: RunningSimulator, index = 0): string {
  const users = sim.control.users().filter((u) => !u.isDisabled);
  return users[(index + 1) % users.length]!.id;
}
