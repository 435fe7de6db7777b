/**
 * `npm run bench:history-writes -- --data-dir SMALL --data-dir LARGE`: does the cost of writing finished plays
 * grow with the history? Runs the same activity workload against each embedded PostgreSQL data directory (made
 * by `npm run seed:history`) and prints, per poll that ended plays, the database time, statements and shared
 * buffers of the poll's write transaction (lock, live state, writeHistory with its rollups and totals, webhook
 * outbox) and of the writeHistory statement alone, then the ratio LARGE / SMALL of each.
 *
 * The workload: the simulator (Jellyfin, virtual clock, in this process) with 300 concurrent plays and the
 * product's ServerMonitor with the default recording rules (30 s minimum, 10-minute merge window), polled once
 * per simulated second. Every measured poll stops 5 plays of at least 40 s and starts 5 others, one in five a
 * resume within the merge window (so some writes extend a row). The figures come from pg_stat_statements
 * (time and buffers include the rollup triggers), reset after a warm-up.
 *
 * It writes into the given databases (the bench plays, and the pg_stat_statements extension): run it on copies
 * of seeded data directories.
 */
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { Registry } from 'prom-client';
import { startSimulator, type PlayRecord } from '@reelstat/jellyfin-sim';
import { ACTIVITY_RECORDING_LIMITS } from '@reelstat/contract';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { InProcessBus } from '../src/bus/in-process-bus.js';
import { AppSettings } from '../src/settings/app-settings.js';
import { createMediaServerClient } from '../src/media-server/create-client.js';
import { ActivityMetrics } from '../src/activity/activity-metrics.js';
import { ServerMonitor } from '../src/activity/server-monitor.js';
import { seededRandom } from '../src/test-support/seeded-random.js';

function argumentsNamed(name: string): string[] {
  return process.argv.flatMap((value, index) => (process.argv[index - 1] === `--${name}` ? [value] : []));
}
const numberArgument = (name: string, fallback: number) => Number(argumentsNamed(name)[0] ?? fallback);

const dataDirs = argumentsNamed('data-dir').map((dir) => path.resolve(dir));
const SESSIONS = numberArgument('sessions', 300);
const STOPS_PER_POLL = numberArgument('stops-per-poll', 5);
const WARMUP_POLLS = numberArgument('warmup-polls', 120);
const MEASURED_POLLS = numberArgument('polls', 300);
const MIN_PLAY_MS = 40_000;
const RESUME_SHARE = 0.2;
if (dataDirs.length === 0) throw new Error('give at least one --data-dir (a data directory made by npm run seed:history)');

interface Cost {
  statements: number;
  dbMs: number;
  buffersHit: number;
  buffersRead: number;
  buffersDirtied: number;
}

interface Figures {
  dataDir: string;
  historyPlays: number;
  historyTableMb: number;
  measuredPolls: number;
  pollsThatWrote: number;
  rowsInserted: number;
  rowsExtended: number;
  perPoll: { writeTransaction: Cost; writeHistory: Cost; everything: Cost };
  medianPollWallMs: number;
}

/**
 * Starts the data directory's PostgreSQL with pg_stat_statements loaded. It is given to the embedded server's
 * preload list: the server sets shared_preload_libraries on its command line (pg_prewarm), which overrides an
 * ALTER SYSTEM of it (the way this script loaded it before pg_prewarm, and which then failed).
 */
async function startWithStatementStats(dataDir: string, logger: pino.Logger): Promise<{ postgres: EmbeddedPostgres; url: string }> {
  const postgres = new EmbeddedPostgres(path.join(dataDir, 'postgres'), logger, { extraPreload: ['pg_stat_statements'] });
  const url = await postgres.start();
  return { postgres, url };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measure(dataDir: string): Promise<Figures> {
  const logger = pino({ level: 'warn' });
  const { postgres, url } = await startWithStatementStats(dataDir, logger);
  const stats = new pg.Client({ connectionString: url });
  await stats.connect();
  await stats.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const db = openDatabase(url, logger);
  const sim = await startSimulator({ flavor: 'jellyfin', clock: 'virtual', scale: 'small', seed: 3, startTime: Date.now() });
  try {
    await migrateToLatest(db, logger);
    const [size] = await db.query<{ plays: string; mb: string }>(
      `SELECT count(*) AS plays, round(pg_total_relation_size('playback_history') / 1e6) AS mb FROM playback_history`,
    );
    // The seeded server (the only, default one) becomes the simulator, so the bench writes next to (and into
    // the totals of) the seeded history.
    const [server] = await db.query<{ id: string }>(`UPDATE media_servers SET url = $1, kind = 'jellyfin' WHERE is_default RETURNING id`, [
      sim.url,
    ]);
    if (!server) throw new Error(`${dataDir} has no media server: make it with npm run seed:history`);
    const serverId = server.id;
    // The live plays of an earlier run belong to a simulator that is gone: without this they would be
    // resumed by this run's (identical) plays.
    await db.query('DELETE FROM live_sessions WHERE server_id = $1', [serverId]);
    const settings = new AppSettings(db);
    await settings.set('ACTIVITY_RECORDING_RULES', {
      minimumPlaySeconds: ACTIVITY_RECORDING_LIMITS.minimumPlaySeconds.default,
      mergeWindowMinutes: ACTIVITY_RECORDING_LIMITS.mergeWindowMinutes.default,
    });
    const bus = new InProcessBus();
    const monitor = new ServerMonitor({
      db,
      bus,
      logger,
      settings,
      metrics: ActivityMetrics.of(new Registry()),
      server: { id: serverId, name: 'bench', kind: 'jellyfin' },
      client: createMediaServerClient({ kind: 'jellyfin', url: sim.url, apiKey: sim.apiKey, retries: 0 }),
      now: () => sim.control.clock.now(),
    });

    const rand = seededRandom(12);
    const users = sim.control.users().filter((u) => !u.isDisabled && u.enableAllFolders);
    const movies = sim.control.itemIds('Movie').filter((id) => (sim.control.item(id)?.runTimeTicks ?? 0) > 60 * 60 * 10_000_000);
    const active = new Map<string, PlayRecord>();
    const stopped: PlayRecord[] = [];
    const startNew = () => {
      const play = sim.control.startPlay({
        userId: users[Math.floor(rand() * users.length)]!.id,
        itemId: movies[Math.floor(rand() * movies.length)]!,
        autoplay: false,
      });
      active.set(play.playId, play);
    };
    const startOne = () => {
      const now = sim.control.clock.now();
      // A resume within the merge window: the same user and item from where it stopped.
      const candidates = stopped.filter((p) => now - (p.endedAtMs ?? now) < 5 * 60_000);
      if (rand() < RESUME_SHARE && candidates.length > 0) {
        const previous = candidates[Math.floor(rand() * candidates.length)]!;
        stopped.splice(stopped.indexOf(previous), 1);
        const play = sim.control.startPlay({
          userId: previous.userId,
          itemId: previous.itemId,
          startPositionTicks: previous.endPositionTicks ?? 0,
          autoplay: false,
        });
        active.set(play.playId, play);
      } else startNew();
    };
    const step = async () => {
      sim.control.advance(1000);
      const started = performance.now();
      const result = await monitor.pollOnce();
      if (!result.ok) throw new Error('a poll failed');
      return { wallMs: performance.now() - started, writes: result.transition?.writes ?? [] };
    };
    for (let i = 0; i < SESSIONS; i++) startNew();
    // The plays reach the minimum length before stops begin; then the warm-up polls already stop and start.
    for (let i = 0; i * 1000 < MIN_PLAY_MS; i++) await step();
    const stopAndStart = () => {
      const now = sim.control.clock.now();
      const old = [...active.values()].filter((p) => now - p.startedAtMs >= MIN_PLAY_MS);
      for (let i = 0; i < STOPS_PER_POLL && old.length > 0; i++) {
        const play = old.splice(Math.floor(rand() * old.length), 1)[0]!;
        active.delete(play.playId);
        stopped.push(sim.control.stop(play.playId));
        startOne();
      }
    };
    for (let i = 0; i < WARMUP_POLLS; i++) {
      stopAndStart();
      await step();
    }

    await stats.query('SELECT pg_stat_statements_reset()');
    const wallMs: number[] = [];
    let pollsThatWrote = 0;
    const [before] = await db.query<{ n: string }>('SELECT count(*) AS n FROM playback_history WHERE server_id = $1', [serverId]);
    let writes = 0;
    for (let i = 0; i < MEASURED_POLLS; i++) {
      stopAndStart();
      const poll = await step();
      wallMs.push(poll.wallMs);
      if (poll.writes.length > 0) pollsThatWrote++;
      writes += poll.writes.length;
    }
    const [after] = await db.query<{ n: string }>('SELECT count(*) AS n FROM playback_history WHERE server_id = $1', [serverId]);
    const rowsInserted = Number(after!.n) - Number(before!.n);

    const { rows: statements } = await stats.query<{
      query: string;
      calls: string;
      ms: number;
      hit: string;
      read: string;
      dirtied: string;
    }>(
      `SELECT query, calls, total_exec_time AS ms, shared_blks_hit AS hit, shared_blks_read AS read, shared_blks_dirtied AS dirtied
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%FROM playback_history WHERE server_id = $1%'`,
    );
    // The statements of the poll's write transaction (server-monitor.ts saveUnsaved).
    const inWriteTransaction = (query: string) =>
      /^(BEGIN|START TRANSACTION|COMMIT)/i.test(query) ||
      /pg_advisory_xact_lock|live_sessions|WITH incoming AS|webhook_deliveries/.test(query);
    const cost = (filter: (query: string) => boolean): Cost => {
      const chosen = statements.filter((s) => filter(s.query) && !/^(SELECT|SHOW) .*FROM (pg_|information_schema)/i.test(s.query));
      const per = (value: number) => Math.round((value / MEASURED_POLLS) * 100) / 100;
      return {
        statements: per(chosen.reduce((sum, s) => sum + Number(s.calls), 0)),
        dbMs: per(chosen.reduce((sum, s) => sum + s.ms, 0)),
        buffersHit: per(chosen.reduce((sum, s) => sum + Number(s.hit), 0)),
        buffersRead: per(chosen.reduce((sum, s) => sum + Number(s.read), 0)),
        buffersDirtied: per(chosen.reduce((sum, s) => sum + Number(s.dirtied), 0)),
      };
    };
    await bus.close();
    return {
      dataDir,
      historyPlays: Number(size!.plays),
      historyTableMb: Number(size!.mb),
      measuredPolls: MEASURED_POLLS,
      pollsThatWrote,
      rowsInserted,
      rowsExtended: writes - rowsInserted,
      perPoll: {
        writeTransaction: cost(inWriteTransaction),
        writeHistory: cost((query) => query.includes('INSERT INTO playback_history')),
        everything: cost(() => true),
      },
      medianPollWallMs: Math.round(median(wallMs) * 10) / 10,
    };
  } finally {
    await sim.stop();
    await stats.end();
    await db.close();
    await postgres.stop();
  }
}

async function main() {
  const results: Figures[] = [];
  for (const dir of dataDirs) results.push(await measure(dir));
  const [small, large] = results;
  const ratio = (pick: (f: Figures) => number) =>
    small && large && pick(small) > 0 ? Math.round((pick(large) / pick(small)) * 100) / 100 : null;
  const ratios =
    small && large
      ? Object.fromEntries(
          (['writeTransaction', 'writeHistory'] as const).map((part) => [
            part,
            {
              dbMs: ratio((f) => f.perPoll[part].dbMs),
              statements: ratio((f) => f.perPoll[part].statements),
              buffersTouched: ratio((f) => f.perPoll[part].buffersHit + f.perPoll[part].buffersRead),
              buffersRead: ratio((f) => f.perPoll[part].buffersRead),
            },
          ]),
        )
      : undefined;
  console.log(
    JSON.stringify(
      {
        workload: { sessions: SESSIONS, stopsPerPoll: STOPS_PER_POLL, warmupPolls: WARMUP_POLLS, measuredPolls: MEASURED_POLLS },
        results,
        ratioLargeToSmall: ratios,
      },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
