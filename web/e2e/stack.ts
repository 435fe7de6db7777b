import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from './env.js';

/** Starting and stopping the simulator and a Reelstat process, for the e2e tests, the demo and the screenshots. */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SIM_API_KEY = '5eed5eed5eed5eed5eed5eed5eed5eed';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, timeoutMs: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before ${url} answered:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output()}`);
}

export interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

function start(command: string[], env: NodeJS.ProcessEnv, readyUrl: string, timeoutMs: number, cleanup?: () => void): Promise<Started> {
  const child = spawn(process.execPath, command, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
      });
    }
    cleanup?.();
  };
  return waitFor(readyUrl, timeoutMs, child, () => output).then(
    () => ({ url: new URL(readyUrl).origin, child, stop }),
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
}

/** The simulator CLI on a free port (real clock); traffic off unless asked, so tests drive every play. */
export async function startSimulator(
  options: { scale?: string; traffic?: string; port?: number; flavor?: string; blurhashes?: string; seed?: number } = {},
): Promise<Started> {
  const port = options.port ?? (await freePort());
  const args = ['--import', 'tsx', 'services/jellyfin-sim/src/cli.ts', '--port', String(port), '--scale', options.scale ?? 'tiny'];
  args.push('--seed', String(options.seed ?? 1), '--traffic', options.traffic ?? 'off', '--api-key', SIM_API_KEY);
  args.push('--flavor', options.flavor ?? 'jellyfin', '--blurhashes', options.blurhashes ?? 'on');
  return start(args, childEnv(), `http://127.0.0.1:${port}/System/Info/Public`, 60_000);
}

/**
 * Reelstat from source on a fresh data directory (embedded PostgreSQL, single node). `env` adds configuration,
 * such as ADMIN_USERNAME/MEDIA_SERVER_URL for a pre-configured instance; without it the instance is unconfigured.
 */
export async function startReelstat(env: Record<string, string> = {}, port?: number): Promise<Started & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelstat-e2e-'));
  const listen = port ?? (await freePort());
  // Always a private single-node instance, whatever the calling shell points at.
  const environment = childEnv({
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    BASE_URL: undefined,
    DATA_DIR: dataDir,
    PORT: String(listen),
    LOG_LEVEL: 'warn',
    ...env,
  });
  const started = await start(
    ['--conditions=reelstat-source', '--import', 'tsx', 'services/server/src/main.ts'],
    environment,
    `http://127.0.0.1:${listen}/auth/isConfigured`,
    120_000,
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  return { ...started, dataDir };
}
