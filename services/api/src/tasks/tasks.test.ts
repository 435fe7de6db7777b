import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { finishedRun, runningTask, startSyncHarness, waitFor, type SyncHarness } from '../../test/sync-harness.js';

describe.each(['jellyfin', 'emby'] as const)('tasks and sync through the API (%s)', (flavor) => {
  let h: SyncHarness;
  let socket: Socket;
  const events: Array<{ event: string; payload: unknown }> = [];
  beforeAll(async () => {
    h = await startSyncHarness(flavor);
    socket = connectSocket(new URL(h.harness.url).origin, { transports: ['websocket'], auth: { token: h.token } });
    socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const hook = {
      name: 'failures',
      url: 'http://127.0.0.1:9/failed',
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: 'task_failed',
    };
    expect((await h.call('POST', '/webhooks', hook)).status).toBe(200);
  });
  const taskFailedEvents = async () =>
    (
      await h.harness.app.runtime.db.query<{ payload: { data: { task: string; error: string } } }>(
        `SELECT payload FROM webhook_deliveries WHERE event_type = 'task_failed' ORDER BY id`,
      )
    ).map((row) => row.payload.data);
  afterAll(async () => {
    socket?.close();
    await h?.stop();
  });

  it('lists the tasks with their type, state and interval', async () => {
    const res = await h.call('GET', '/api/getTaskSettings');
    expect(res.body).toEqual([
      { name: 'PartialSyncTask', task: 'PartialJellyfinSync', type: 'JOB', running: false, Interval: 15 },
      { name: 'FullSyncTask', task: 'JellyfinSync', type: 'JOB', running: false, Interval: 15 },
      { name: 'PlaybackSyncTask', task: 'JellyfinPlaybackReportingPluginSync', type: 'IMPORT', running: false, Interval: null },
      { name: 'BackupTask', task: 'Backup', type: 'JOB', running: false, Interval: 1440 },
    ]);
    const keyed = (await h.call('GET', '/api/getTaskSettings?as=object')).body as Record<string, { Interval: number | null }>;
    expect(keyed.JellyfinSync).toEqual({ Interval: 15, running: false });
    expect(keyed.FullSyncTask).toEqual({ Interval: 15, running: false });
    expect(keyed.JellyfinPlaybackReportingPluginSync).toEqual({ Interval: null, running: false });
  });

  it("accepts the incumbent's task names wherever a task name is", async () => {
    const set = await h.call('POST', '/api/setTaskSettings', { taskname: 'PartialJellyfinSync', Interval: 60 });
    expect(set.status).toBe(200);
    expect((set.body as Array<{ name: string; Interval: number }>).find((t) => t.name === 'PartialSyncTask')!.Interval).toBe(60);
    await h.call('POST', '/api/setTaskSettings', { taskname: 'PartialSyncTask', Interval: 15 });
    expect(await h.call('GET', '/api/stopTask?task=JellyfinSync')).toMatchObject({
      status: 409,
      body: { message: 'FullSyncTask is not running' },
    });
    expect((await h.call('GET', '/api/stopTask?task=NoSuchTask')).status).toBe(400);
  });

  it('runs a full sync once, refuses a second start and the partial sync meanwhile, logs it and pushes live events', async () => {
    // Slow pages keep the run going long enough to try starting it again.
    await h.sim.control.setFaults({ slowPagesMs: 150 });
    const started = await h.call('GET', '/sync/beginSync');
    expect(started).toMatchObject({ status: 200, body: { message: 'FullSyncTask started' } });
    const again = await h.call('GET', '/sync/beginSync');
    expect(again).toMatchObject({ status: 409, body: { message: 'FullSyncTask is already running' } });
    await runningTask(h, 'FullSyncTask');
    const partial = await h.call('GET', '/sync/beginPartialSync');
    expect(partial).toMatchObject({ status: 409, body: { message: 'PartialSyncTask cannot start while FullSyncTask is running' } });
    await h.sim.control.clearFaults();

    const run = await finishedRun(h, 'FullSyncTask');
    expect(run).toMatchObject({ Name: 'FullSyncTask', Type: 'JOB', ExecutionType: 'Manual', Result: 'Success' });
    expect(run.Log[0]).toEqual({ Message: 'FullSyncTask started (Manual)', color: 'dodgerblue', At: expect.any(String) });
    expect(run.Log.at(-1)).toMatchObject({ Message: expect.stringMatching(/^FullSyncTask finished in [\d.]+ s: /), color: 'lawngreen' });

    const counts = h.sim.control.counts();
    const [stored] = await h.harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE NOT archived');
    expect(stored!.n).toBe(
      counts.movies + counts.series + counts.seasons + counts.episodes + counts.artists + counts.albums + counts.tracks,
    );

    const fullEvents = events.filter((e) => e.event === 'FullSyncTask').map((e) => (e.payload as { type: string }).type);
    expect(fullEvents[0]).toBe('Start');
    expect(fullEvents.at(-1)).toBe('Success');
    expect(fullEvents).toContain('Update');
    const lists = () => events.filter((e) => e.event === 'task-list').map((e) => e.payload as Array<{ name: string; running: boolean }>);
    expect(lists().some((l) => l.find((t) => t.name === 'FullSyncTask')?.running)).toBe(true);
    expect(lists()[0]!.find((t) => t.name === 'FullSyncTask')).toMatchObject({ task: 'JellyfinSync' });
    // The list pushed after the run says it is idle again.
    await waitFor(
      async () =>
        lists()
          .at(-1)!
          .find((t) => t.name === 'FullSyncTask')!.running
          ? undefined
          : true,
      'an idle task list',
    );
  });

  it('stops a running task on request; the database stays consistent and the next run completes', async () => {
    await h.sim.control.setFaults({ slowPagesMs: 400 });
    // A fresh database state for the items, so the run has many pages to go through.
    await h.harness.app.runtime.db.query('DELETE FROM items RETURNING 1');
    expect((await h.call('GET', '/sync/beginSync')).status).toBe(200);
    await runningTask(h, 'FullSyncTask');
    const stopAsked = Date.now();
    expect(await h.call('GET', '/api/stopTask?task=FullSyncTask')).toMatchObject({
      status: 200,
      body: { message: 'Stopping FullSyncTask' },
    });
    const stopped = await finishedRun(h, 'FullSyncTask', 1);
    const stopMs = Date.now() - stopAsked;
    expect(stopped.Result).toBe('Failed');
    expect(stopped.Log.at(-1)).toMatchObject({ Message: 'FullSyncTask stopped: Stopped by an administrator', color: 'red' });
    // A stop asked for is not a failure to notify.
    expect(await taskFailedEvents()).toEqual([]);
    // Nothing was archived by a run that did not see everything.
    const [archived] = await h.harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE archived');
    expect(archived!.n).toBe(0);
    console.log(JSON.stringify({ flavor, stopMs }));
    expect((await h.call('GET', '/api/stopTask?task=FullSyncTask')).status).toBe(409);

    await h.sim.control.clearFaults();
    expect((await h.call('GET', '/sync/beginSync')).status).toBe(200);
    expect((await finishedRun(h, 'FullSyncTask', 2)).Result).toBe('Success');
    const [stored] = await h.harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE NOT archived');
    const counts = h.sim.control.counts();
    expect(stored!.n).toBe(
      counts.movies + counts.series + counts.seasons + counts.episodes + counts.artists + counts.albums + counts.tracks,
    );
  });

  it('fails the run with a clear log line when the media server goes down mid-sync; the next run completes', async () => {
    await h.harness.app.runtime.db.query('DELETE FROM items RETURNING 1');
    await h.sim.control.setFaults({ slowPagesMs: 300 });
    expect((await h.call('GET', '/sync/beginSync')).status).toBe(200);
    await runningTask(h, 'FullSyncTask');
    await waitFor(async () => {
      const [row] = await h.harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items');
      return row!.n > 0 ? true : undefined;
    }, 'the first page');
    await h.sim.control.setFaults({ down: 'refused' });
    const failed = await finishedRun(h, 'FullSyncTask', 3);
    expect(failed.Result).toBe('Failed');
    expect(failed.Log.some((l) => l.color === 'red' && /FullSyncTask failed: .*(refused|reach)/i.test(l.Message))).toBe(true);
    expect(await taskFailedEvents()).toEqual([{ task: 'FullSyncTask', error: expect.stringMatching(/refused|reach/i) }]);
    const [archived] = await h.harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE archived');
    expect(archived!.n).toBe(0);

    await h.sim.control.clearFaults();
    expect((await h.call('GET', '/sync/beginSync')).status).toBe(200);
    expect((await finishedRun(h, 'FullSyncTask', 4)).Result).toBe('Success');
  });

  it('sets task intervals from the SPEC.md list only', async () => {
    const set = await h.call('POST', '/api/setTaskSettings', { taskname: 'FullSyncTask', Interval: 1440 });
    expect(set.status).toBe(200);
    expect((set.body as Array<{ name: string; Interval: number }>).find((t) => t.name === 'FullSyncTask')!.Interval).toBe(1440);
    const bad = await h.call('POST', '/api/setTaskSettings', { taskname: 'FullSyncTask', Interval: 5 });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain('body.Interval: must be one of 15, 30, 60, 720, 1440, 10080');
    const importTask = await h.call('POST', '/api/setTaskSettings', { taskname: 'PlaybackSyncTask', Interval: 60 });
    expect(importTask).toMatchObject({ status: 400, body: { message: 'PlaybackSyncTask runs only on demand and has no interval' } });
    expect((await h.call('GET', '/api/stopTask?task=Nope')).status).toBe(400);
    const tasks = (await h.call('GET', '/api/getTaskSettings')).body as Array<{ name: string; Interval: number | null }>;
    expect(tasks.map((t) => [t.name, t.Interval])).toEqual([
      ['PartialSyncTask', 15],
      ['FullSyncTask', 1440],
      ['PlaybackSyncTask', null],
      ['BackupTask', 1440],
    ]);
  });
});
