import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, scrapeMetric, waitFor } from '@reelstat/core/test-support/test-kit.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface SpawnedReelstat {
  child: ChildProcess;
  port: number;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  waitReady(timeoutMs?: number): Promise<void>;
}

/** Runs the real Reelstat entry point (from source) in its own process, as `npm start` would. */
export async function spawnReelstat(env: Record<string, string>, args: string[] = []): Promise<SpawnedReelstat> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(
    process.execPath,
    ['--conditions=reelstat-source', '--import', 'tsx', path.join(repoRoot, 'services/server/src/main.ts'), ...args],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}${env.BASE_URL ?? ''}`;
  return {
    child,
    port,
    url,
    output: () => output,
    exited,
    async waitReady(timeoutMs = 60_000) {
      let exited = false;
      await waitFor(
        'Reelstat to be ready',
        async () => {
          exited = child.exitCode !== null;
          return exited || (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
        },
        { timeoutMs, intervalMs: 200 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}:\n${output}`);
      });
      if (exited) throw new Error(`Reelstat exited with ${child.exitCode}:\n${output}`);
    },
  };
}

export async function leaderGauge(port: number, group = 'scheduler'): Promise<number | undefined> {
  return scrapeMetric(`http://127.0.0.1:${port}`, 'reelstat_leader', `{group="${group}"}`);
}
