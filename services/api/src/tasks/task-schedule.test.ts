import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import { startSyncHarness, waitFor, type LogEntryBody, type SyncHarness, type Simulator } from '../../test/sync-harness.js';

describe('the leader runs tasks on their intervals and prunes old runs', () => {
  let h: SyncHarness;
  let second: Simulator | undefined;
  beforeAll(async () => {
    h = await startSyncHarness('jellyfin');
  });
  afterAll(async () => {
    await h?.stop();
    await second?.stop();
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

  it('syncs each server on its own interval: a longer one declared by a MediaStatsServer makes only that server wait', async () => {
    const db = h.harness.app.runtime.db;
    second = await startSimulator({ flavor: 'emby', scale: 'tiny', seed: 12 });
    const added = await h.call('POST', '/api/mediaServers', { Url: second.url, ApiKey: second.apiKey, Name: 'Slow Emby' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const slowId = (added.body as { server: { Id: string } }).server.Id;
    const [{ id: firstId }] = (await db.query<{ id: string }>('SELECT id FROM media_servers WHERE id <> $1', [slowId])) as [{ id: string }];
    // Adding the server ran a full sync of it; then the declared partial interval (10 h) applies to it alone.
    await waitFor(
      async () => {
        const logs = (await h.call('GET', '/logs/getLogs')).body as LogEntryBody[];
        return logs.some(
          (l) => l.Name === 'FullSyncTask' && l.Result !== 'Running' && l.Log.some((line) => line.Message.includes('Slow Emby')),
        )
          ? true
          : undefined;
      },
      'the new server’s first full sync',
      90_000,
    );
    await db.query(`UPDATE media_servers SET settings = $2 WHERE id = $1`, [
      slowId,
      JSON.stringify({ sync: { recentIntervalMinutes: 600 } }),
    ]);
    // Both servers' partial syncs started 20 minutes ago: the installation's 15 minutes are over, 10 h are not.
    for (const id of [firstId, slowId]) {
      await db.query(
        `INSERT INTO sync_cursors (server_id, name, value) VALUES ($1, 'task_started_at:PartialSyncTask', $2)
         ON CONFLICT (server_id, name) DO UPDATE SET value = EXCLUDED.value`,
        [id, new Date(Date.now() - 20 * 60_000).toISOString()],
      );
    }
    const before = ((await h.call('GET', '/logs/getLogs')).body as LogEntryBody[]).filter((l) => l.Name === 'PartialSyncTask').length;
    const run = await waitFor(
      async () => {
        const runs = ((await h.call('GET', '/logs/getLogs')).body as LogEntryBody[]).filter((l) => l.Name === 'PartialSyncTask');
        return runs.length > before && runs[0]!.Result !== 'Running' ? runs[0] : undefined;
      },
      'the scheduled partial sync',
      60_000,
    );
    expect(run).toMatchObject({ ExecutionType: 'Automatic', Result: 'Success' });
    const steps = run.Log.map((line) => line.Message).filter((message) => message.startsWith('Partial sync of'));
    expect(steps).toHaveLength(1);
    expect(steps[0]).not.toContain('Slow Emby');
    const starts = await db.query<{ server_id: string; value: string }>(
      `SELECT server_id, value FROM sync_cursors WHERE name = 'task_started_at:PartialSyncTask'`,
    );
    const startOf = (id: string) => Date.parse(starts.find((row) => row.server_id === id)!.value);
    expect(startOf(firstId)).toBeGreaterThan(Date.now() - 5 * 60_000);
    expect(startOf(slowId)).toBeLessThan(Date.now() - 15 * 60_000);
  }, 180_000);
});
