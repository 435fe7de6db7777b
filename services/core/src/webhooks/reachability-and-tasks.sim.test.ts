// media_server_unreachable / media_server_back from the activity monitor's polls (simulator down with 503),
// and task_failed from a failing task run, each queued once in the transaction that records the change.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startActivityHarness, type ActivityHarness } from '../activity/test-support/activity-test-harness.js';
import { SecretBox } from '../security/secret-box.js';
import { TaskRuns } from '../tasks/task-runs.js';
import { enqueueWebhookEvents } from './webhook-events.js';
import { WebhookService } from './webhook-service.js';
import { UNREACHABLE_AFTER_FAILURES } from './server-reachability.js';

describe('reachability and task webhooks', () => {
  let h: ActivityHarness;
  let service: WebhookService;
  beforeEach(async () => {
    h = await startActivityHarness('jellyfin');
    service = new WebhookService(h.db, new SecretBox('reachability-tests-0123456789abcdef'), 'UTC');
    for (const event of ['media_server_unreachable', 'media_server_back', 'task_failed'] as const)
      await service.create({
        name: event,
        url: `http://127.0.0.1:9/${event}`,
        webhook_type: 'generic',
        trigger_type: 'event',
        event_type: event,
      });
  });
  afterEach(async () => {
    await h.sim.control.clearFaults();
    await h.close();
  });

  const queued = () =>
    h.db.query<{ event_type: string; payload: { server: { id: string } | null; data: Record<string, unknown> } }>(
      `SELECT event_type, payload FROM webhook_deliveries ORDER BY id`,
    );

  it('announces an unreachable server once after consecutive failures, and its return once', async () => {
    await h.monitor.pollOnce();
    await h.sim.control.setFaults({ down: '503' });
    for (let i = 1; i < UNREACHABLE_AFTER_FAILURES; i++) expect((await h.monitor.pollOnce()).ok).toBe(false);
    expect(await queued()).toEqual([]);
    for (let i = 0; i < 3; i++) await h.monitor.pollOnce();
    // A new monitor (restart, failover) on the same database does not announce it again.
    const other = h.newMonitor();
    for (let i = 0; i < UNREACHABLE_AFTER_FAILURES + 1; i++) await other.pollOnce();
    const down = await queued();
    expect(down.map((d) => d.event_type)).toEqual(['media_server_unreachable']);
    expect(down[0]!.payload.server!.id).toBe(h.serverId);
    expect(down[0]!.payload.data.error).toEqual(expect.stringContaining('503'));

    await h.sim.control.clearFaults();
    expect((await h.monitor.pollOnce()).ok).toBe(true);
    expect((await other.pollOnce()).ok).toBe(true);
    await h.monitor.pollOnce();
    expect((await queued()).map((d) => d.event_type)).toEqual(['media_server_unreachable', 'media_server_back']);
  });

  it('a failed task run and its task_failed delivery are written together', async () => {
    const runs = new TaskRuns(h.db);
    const [run] = await h.db.query<{ id: string }>(
      `INSERT INTO task_runs (id, name, type, execution_type, result) VALUES (gen_random_uuid(), 'FullSyncTask', 'JOB', 'Manual', 'Running') RETURNING id`,
    );
    await runs.finish(run!.id, 'Failed', 'media server answered 500', (t) =>
      enqueueWebhookEvents(h.db, t, [
        {
          event: 'task_failed',
          server: null,
          occurred_at: new Date().toISOString(),
          data: { task: 'FullSyncTask', error: 'media server answered 500' },
        },
      ]),
    );
    const rows = await queued();
    expect(rows.map((r) => [r.event_type, r.payload.data])).toEqual([
      ['task_failed', { task: 'FullSyncTask', error: 'media server answered 500' }],
    ]);
    const [stored] = await h.db.query<{ result: string }>(`SELECT result FROM task_runs WHERE id = $1`, [run!.id]);
    expect(stored!.result).toBe('Failed');
  });
});
