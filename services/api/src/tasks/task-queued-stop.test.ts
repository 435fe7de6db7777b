import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncHarness, type LogEntryBody, type SyncHarness } from '../../test/sync-harness.js';

// An api-only process: nothing works the queue, so a started task stays queued until someone stops it.
describe('stopping a task that is queued but not picked up yet', () => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await startSyncHarness('emby', { ROLES: 'api' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('ends the run at once with a clear log line', async () => {
    // Linking the server queued the first full sync (Automatic); nothing picks it up here.
    expect(await h.call('GET', '/sync/beginSync')).toMatchObject({ status: 409, body: { message: 'FullSyncTask is already running' } });
    const tasks = (await h.call('GET', '/api/getTaskSettings')).body as Array<{ name: string; running: boolean }>;
    expect(tasks.find((t) => t.name === 'FullSyncTask')!.running).toBe(true);
    expect(await h.call('GET', '/sync/beginPartialSync')).toMatchObject({
      status: 409,
      body: { message: 'PartialSyncTask cannot start while FullSyncTask is running' },
    });

    expect(await h.call('GET', '/api/stopTask?task=FullSyncTask')).toMatchObject({
      status: 200,
      body: { message: 'Stopping FullSyncTask' },
    });
    const [run] = (await h.call('GET', '/logs/getLogs')).body as LogEntryBody[];
    expect(run).toMatchObject({ Name: 'FullSyncTask', ExecutionType: 'Automatic', Result: 'Failed' });
    expect(run!.Log.map((l) => [l.Message, l.color])).toEqual([['FullSyncTask stopped before it started', 'red']]);
    const after = (await h.call('GET', '/api/getTaskSettings')).body as Array<{ name: string; running: boolean }>;
    expect(after.find((t) => t.name === 'FullSyncTask')!.running).toBe(false);
  });
});
