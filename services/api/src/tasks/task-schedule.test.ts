import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncHarness, waitFor, type LogEntryBody, type SyncHarness } from '../../test/sync-harness.js';

describe('the leader runs tasks on their intervals and prunes old runs', () => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await startSyncHarness('jellyfin');
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('starts a scheduled task (Automatic) once its interval has passed, and prunes runs past the retention', async () => {
    const db = h.harness.app.runtime.db;
    // The partial sync last ran 20 minutes ago (interval 15); a run from 40 days ago is past the 30-day retention.
    await db.query(
      `INSERT INTO task_runs (id, name, type, execution_type, result, started_at, finished_at, heartbeat_at) VALUES
         (gen_random_uuid(), 'PartialSyncTask', 'JOB', 'Manual', 'Success', now() - interval '20 minutes', now() - interval '19 minutes', now() - interval '19 minutes'),
         (gen_random_uuid(), 'FullSyncTask', 'JOB', 'Manual', 'Success', now() - interval '40 days', now() - interval '40 days', now() - interval '40 days')`,
    );
    const automatic = await waitFor(async () => {
      const logs = (await h.call('GET', '/logs/getLogs')).body as LogEntryBody[];
      const run = logs.find((l) => l.Name === 'PartialSyncTask' && l.ExecutionType === 'Automatic' && l.Result !== 'Running');
      return run;
    }, 'the scheduled partial sync');
    expect(automatic.Result).toBe('Success');
    const logs = (await h.call('GET', '/logs/getLogs')).body as LogEntryBody[];
    // The full sync ran once, when the server was linked: not due again yet. The 40-day-old run was pruned.
    expect(logs.map((l) => [l.Name, l.ExecutionType])).toEqual([
      ['PartialSyncTask', 'Automatic'],
      ['FullSyncTask', 'Automatic'],
      ['PartialSyncTask', 'Manual'],
    ]);
  });
});
