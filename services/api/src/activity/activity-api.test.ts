// The activity monitor's settings and untracked-user routes over HTTP: SPEC.md §5 ranges and steps, 400 with a
// message for each bad value and nothing changed, toggling untracked users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe('activity monitor routes', () => {
  let sim: RunningSimulator;
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 3 });
    harness = await startApiHarness();
    token = await createAdmin(harness);
    const linked = await harness.call('POST', '/auth/configSetup', { body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey }, token });
    expect(linked.status).toBe(200);
  });
  afterAll(async () => {
    await harness.stop();
    await sim.stop();
  });

  const get = () => harness.call('GET', '/api/getActivityMonitorSettings', { token });
  const set = (body: unknown) => harness.call('POST', '/api/setActivityMonitorSettings', { body, token });

  it('answers the defaults: SPEC.md recommended intervals, 30 s minimum, 10 min resume window', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ activeSessionsInterval: 1000, idleInterval: 5000, minimumPlaySeconds: 30, mergeWindowMinutes: 10 });
  });

  it.each([
    [{ activeSessionsInterval: 400, idleInterval: 5000 }, 'body.activeSessionsInterval: activeSessionsInterval must be at least 500 ms'],
    [
      { activeSessionsInterval: 10_100, idleInterval: 5000 },
      'body.activeSessionsInterval: activeSessionsInterval must be at most 10000 ms',
    ],
    [
      { activeSessionsInterval: 1050, idleInterval: 5000 },
      'body.activeSessionsInterval: activeSessionsInterval must be a multiple of 100 ms',
    ],
    [
      { activeSessionsInterval: 1000.5, idleInterval: 5000 },
      'body.activeSessionsInterval: activeSessionsInterval must be a whole number of milliseconds',
    ],
    [
      { activeSessionsInterval: '1000', idleInterval: 5000 },
      'body.activeSessionsInterval: activeSessionsInterval must be a number of milliseconds',
    ],
    [{ activeSessionsInterval: 1000, idleInterval: 0 }, 'body.idleInterval: idleInterval must be at least 1000 ms'],
    [{ activeSessionsInterval: 1000, idleInterval: 31_000 }, 'body.idleInterval: idleInterval must be at most 30000 ms'],
    [{ activeSessionsInterval: 1000, idleInterval: 1500 }, 'body.idleInterval: idleInterval must be a multiple of 1000 ms'],
    [{ activeSessionsInterval: 1000 }, 'body.idleInterval: idleInterval must be a number of milliseconds'],
    [
      { activeSessionsInterval: 1000, idleInterval: 5000, minimumPlaySeconds: -1 },
      'body.minimumPlaySeconds: minimumPlaySeconds must be at least 0 seconds',
    ],
    [
      { activeSessionsInterval: 1000, idleInterval: 5000, mergeWindowMinutes: 2000 },
      'body.mergeWindowMinutes: mergeWindowMinutes must be at most 1440 minutes',
    ],
  ])('refuses %j with 400 and changes nothing', async (body, problem) => {
    const res = await set(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, message: `Invalid request: ${problem}` });
    expect((await get()).body).toEqual({
      activeSessionsInterval: 1000,
      idleInterval: 5000,
      minimumPlaySeconds: 30,
      mergeWindowMinutes: 10,
    });
  });

  it('saves values inside the ranges (the edges included) and answers them', async () => {
    const res = await set({ activeSessionsInterval: 500, idleInterval: 30_000, mergeWindowMinutes: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Activity monitor settings applied in real time',
      activeSessionsInterval: 500,
      idleInterval: 30_000,
      minimumPlaySeconds: 30,
      mergeWindowMinutes: 0,
    });
    expect((await get()).body).toEqual({
      activeSessionsInterval: 500,
      idleInterval: 30_000,
      minimumPlaySeconds: 30,
      mergeWindowMinutes: 0,
    });
    const edge = await set({ activeSessionsInterval: 10_000, idleInterval: 1000, minimumPlaySeconds: 0 });
    expect(edge.status).toBe(200);
    expect((await get()).body).toEqual({
      activeSessionsInterval: 10_000,
      idleInterval: 1000,
      minimumPlaySeconds: 0,
      mergeWindowMinutes: 0,
    });
  });

  it('toggles untracked users, including users sync has not seen yet', async () => {
    const userId = sim.control.users()[1]!.id;
    expect((await harness.call('GET', '/api/UntrackedUsers', { token })).body).toEqual([]);
    const untrack = await harness.call('POST', '/api/setUntrackedUsers', { body: { userId }, token });
    expect(untrack).toMatchObject({ status: 200, body: [userId] });
    expect((await harness.call('POST', '/api/setUntrackedUsers', { body: { userId: 'abc' }, token })).body).toEqual([userId, 'abc'].sort());
    expect((await harness.call('POST', '/api/setUntrackedUsers', { body: { userId }, token })).body).toEqual(['abc']);
    expect((await harness.call('GET', '/api/UntrackedUsers', { token })).body).toEqual(['abc']);
    const bad = await harness.call('POST', '/api/setUntrackedUsers', { body: { userId: '' }, token });
    expect(bad).toMatchObject({ status: 400, body: { message: 'Invalid request: body.userId: userId is required' } });
  });

  it('needs a login', async () => {
    expect((await harness.call('GET', '/api/getActivityMonitorSettings')).status).toBe(401);
    expect((await harness.call('POST', '/api/setUntrackedUsers', { body: { userId: 'x' } })).status).toBe(401);
  });
});
