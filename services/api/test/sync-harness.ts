/** A real api+scheduler process linked to a simulator, for the sync and task tests. */
import { startSimulator } from '@reelstat/jellyfin-sim';
import { waitFor as waitForCondition } from '@reelstat/core/test-support/test-kit.js';
import { startApiHarness, digest, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

export type Simulator = Awaited<ReturnType<typeof startSimulator>>;

export interface SyncHarness {
  harness: ApiHarness;
  sim: Simulator;
  token: string;
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

export async function startSyncHarness(
  flavor: 'jellyfin' | 'emby',
  env: Record<string, string> = {},
  simOptions: Parameters<typeof startSimulator>[0] = {},
): Promise<SyncHarness> {
  const sim = await startSimulator({ flavor, scale: 'tiny', seed: 11, ...simOptions });
  const harness = await startApiHarness({ ROLES: 'api,scheduler', ...env });
  const created = await harness.call('POST', '/auth/createuser', { body: { username: 'admin', password: digest('secret-1') } });
  const token = (created.body as { token: string }).token;
  const linked = await harness.call('POST', '/auth/configSetup', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } });
  if (linked.status !== 200) throw new Error(`configSetup: ${linked.status} ${JSON.stringify(linked.body)}`);
  const h: SyncHarness = {
    harness,
    sim,
    token,
    call: (method, path, body) => harness.call(method, path, { token, body }),
    async stop() {
      await harness.stop();
      await sim.stop();
    },
  };
  // Linking starts a full sync (Automatic); tests begin once it is over, with the libraries synced. An api-only
  // process has no worker: there the run stays queued.
  if (harness.app.runtime.config.roles.includes('scheduler')) await finishedRun(h, 'FullSyncTask');
  return h;
}

/** test-kit's waitFor, in the argument order these tests were written with. */
export function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  return waitForCondition(what, check, { timeoutMs });
}

export interface LogEntryBody {
  Id: string;
  Name: string;
  Type: string;
  ExecutionType: string;
  Result: string;
  Duration: number;
  Log: Array<{ Message: string; color: string }>;
}

export async function finishedRun(h: SyncHarness, name: string, after = 0): Promise<LogEntryBody> {
  return waitFor(async () => {
    const logs = (await h.call('GET', '/logs/getLogs')).body as LogEntryBody[];
    const runs = logs.filter((l) => l.Name === name);
    return runs.length > after && runs[0]!.Result !== 'Running' ? runs[0] : undefined;
  }, `${name} to finish`);
}

/**
 * Waits until a worker has picked up the task's run: the task list says running as soon as the run is queued,
 * and a stop before the pick-up ends it "before it started" (a busy machine leaves that gap open for a while).
 */
export async function runningTask(h: SyncHarness, name: string): Promise<void> {
  await waitFor(async () => {
    const tasks = (await h.call('GET', '/api/getTaskSettings')).body as Array<{ name: string; running: boolean }>;
    if (!tasks.find((t) => t.name === name)?.running) return undefined;
    const logs = (await h.call('GET', '/logs/getLogs')).body as LogEntryBody[];
    const run = logs.find((l) => l.Name === name);
    return run?.Result === 'Running' && run.Log.some((l) => l.Message.startsWith(`${name} started (`)) ? true : undefined;
  }, `${name} to run`);
}
