/**
 * The Reelstat process `npm run bench:api` measures, and what the benchmark asks of it beside HTTP: record a play
 * (so that the answer cache cannot answer the next call), report its heap and the history's bytes, and delete
 * the plays it recorded. By default it runs in a process of its own (forkBenchServer: bench-api-server-child.ts,
 * with the server's Node flags), as a server runs: the benchmark's fetches, JSON parsing and autocannon then take
 * neither its event loop nor its garbage collector. `--in-process` runs it inside the benchmark (startBenchServer),
 * as the benchmark did before issue 20's eighth session, to compare with the figures measured that way.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deletePlays, historyJsonColumns, loadConfig, writeHistory, type Database } from '@reelstat/core';
import pino from 'pino';
import { startProcess } from '@reelstat/server';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';

export interface BenchServerOptions {
  /** DATA_DIR of a seeded embedded PostgreSQL (used when databaseUrl is empty). */
  dataDir: string;
  databaseUrl: string;
  /** The pool is sized for the home-page mix's connections. */
  connections: number;
  adminPassword: string;
  logLevel: string;
}

export interface StorageBytes {
  relations: Record<string, number>;
  total: number;
}

/** What the benchmark asks of the process, in or out of its own. */
export interface BenchServerCommands {
  plays(): Promise<number>;
  record(): Promise<void>;
  removeAll(): Promise<void>;
  storage(): Promise<StorageBytes>;
  /** The server process's V8 heap in use, MB (what the answer cache still holds shows here). */
  heapUsedMb(): Promise<number>;
}

export interface BenchServer extends BenchServerCommands {
  url: string;
  /** Where it runs: 'its own process' or 'the benchmark's process'. */
  where: string;
  stop(): Promise<void>;
}

/** Starts the api role inside this process on the seeded database. */
export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const logger = pino({ level: options.logLevel });
  const config = loadConfig(
    {},
    {
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl || undefined,
      PORT: '0',
      HOST: '127.0.0.1',
      ROLES: 'api',
      LOG_LEVEL: 'warn',
      UPDATE_CHECK_URL: '',
      METRICS_ENABLED: 'true',
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: options.adminPassword,
      DATABASE_POOL_MAX: String(Math.max(10, options.connections)),
    },
  );
  const app = await startProcess(config, logger);
  try {
    const plays = new BenchPlays(app.runtime.db);
    await plays.prepare();
    return {
      url: app.url,
      where: 'the benchmark’s process',
      plays: () => playsInHistory(app.runtime.db),
      record: () => plays.record(),
      removeAll: () => plays.removeAll(),
      storage: () => storageBytes(app.runtime.db),
      heapUsedMb: async () => Math.round(process.memoryUsage().heapUsed / 1048576),
      stop: () => app.stop(),
    };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

/** A command sent to the child, and its answer. */
export interface CommandMessage {
  id: number;
  command: keyof BenchServerCommands;
}
export type ChildMessage = { ready: true; url: string } | { failed: string } | { id: number; result?: unknown; error?: string };

/** Starts the api role in a process of its own (the server's Node flags) and talks to it over IPC. */
export async function forkBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const entry = fileURLToPath(new URL('./bench-api-server-child.ts', import.meta.url));
  // The benchmark runs through tsx with the source condition (package.json): the child runs the same way.
  const child = fork(entry, [JSON.stringify(options)], { execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS], stdio: 'inherit' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: ChildMessage) => {
      if ('ready' in message) resolve(message.url);
      else if ('failed' in message) reject(new Error(`the Reelstat process did not start: ${message.failed}`));
      else {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result);
      }
    });
    void exited.then((code) => {
      reject(new Error(`the Reelstat process exited (${String(code)})`));
      for (const waiting of pending.values()) waiting.reject(new Error(`the Reelstat process exited (${String(code)})`));
    });
  });
  // Interrupted (Ctrl-C), the Reelstat process and its embedded PostgreSQL stop too.
  process.once('SIGINT', () => {
    child.kill('SIGTERM');
    void exited.then(() => process.exit(130));
  });
  const ask = <T>(command: keyof BenchServerCommands) =>
    new Promise<T>((resolve, reject) => {
      nextId += 1;
      pending.set(nextId, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id: nextId, command } satisfies CommandMessage);
    });
  return {
    url,
    where: 'its own process',
    plays: () => ask('plays'),
    record: () => ask('record'),
    removeAll: () => ask('removeAll'),
    storage: () => ask('storage'),
    heapUsedMb: () => ask('heapUsedMb'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function playsInHistory(db: Database): Promise<number> {
  const [row] = await db.query<{ plays: number }>('SELECT count(*)::int AS plays FROM playback_history');
  return row?.plays ?? 0;
}

/**
 * Plays the benchmark records to change the history between calls: copies of one seeded play (same user,
 * item, library), started now, with play keys of their own so that removeAll deletes exactly them.
 */
class BenchPlays {
  private template: Record<string, unknown> | undefined;
  private count = 0;
  private readonly prefix = `bench-api-${Date.now()}-`;

  constructor(private readonly db: Database) {}

  async prepare(): Promise<void> {
    const [row] = await this.db.query<Record<string, unknown>>(
      `SELECT h.*, ${historyJsonColumns('h')} FROM playback_history h JOIN media_servers m ON m.id = h.server_id ORDER BY m.is_default DESC, h.id LIMIT 1`,
    );
    if (!row) throw new Error('the history is empty: seed it first (npm run seed:history)');
    this.template = row;
  }

  async record(): Promise<void> {
    const t = this.template!;
    this.count += 1;
    const startedAt = new Date(Date.now() - 60_000);
    await writeHistory(this.db, [
      {
        serverId: String(t.server_id),
        playKey: `${this.prefix}${this.count}`,
        source: 'monitor',
        userId: String(t.user_id),
        userName: String(t.user_name),
        itemId: String(t.item_id),
        itemName: String(t.item_name),
        itemType: t.item_type as string | null,
        seriesId: t.series_id as string | null,
        seriesName: t.series_name as string | null,
        seasonId: t.season_id as string | null,
        libraryId: t.library_id as string | null,
        client: t.client as string | null,
        deviceName: t.device_name as string | null,
        playMethod: t.play_method as 'DirectPlay',
        streamDetails: t.stream_details,
        transcodingInfo: t.transcoding_info,
        startedAt,
        endedAt: new Date(startedAt.getTime() + 30_000),
        playedSeconds: 30,
      },
    ]);
  }

  async removeAll(): Promise<void> {
    if (!this.template) return;
    await deletePlays(this.db, String(this.template.server_id), `h.play_key LIKE $2`, [`${this.prefix}%`]);
  }
}

/** On-disk bytes of the history and everything kept to answer statistics and the search (tables with their indexes and TOAST). */
async function storageBytes(db: Database): Promise<StorageBytes> {
  const rows = await db.query<{ relation: string; bytes: string }>(
    `SELECT c.relname AS relation, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND (c.relname IN ('playback_history', 'history_search_values', 'history_search_terms', 'history_search_word_keys', 'history_search_words', 'library_item_counts', 'user_last_plays') OR c.relname LIKE 'play\\_%')
     ORDER BY c.relname`,
  );
  const relations = Object.fromEntries(rows.map((row) => [row.relation, Number(row.bytes)]));
  return { relations, total: Object.values(relations).reduce((sum, bytes) => sum + bytes, 0) };
}
