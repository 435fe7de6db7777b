import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '@reelstat/core';
import { createTestDatabase, testConfig, testLogger, type TestDatabase, waitUntil } from '@reelstat/core/test-support/test-services.js';
import { SchedulerRole } from './scheduler-role.js';
import type { LeaderLoop } from './scheduler-parts.js';

describe('SchedulerRole', () => {
  let database: TestDatabase;
  const runtimes: Runtime[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.close()));
    await database.drop();
  });

  async function runtime() {
    const rt = new Runtime(testConfig({ DATABASE_URL: database.url, ROLES: 'scheduler', LEADER_LOCK_RENEW_MS: '200' }), testLogger);
    await rt.connect();
    await rt.migrate();
    runtimes.push(rt);
    return rt;
  }

  it('runs leader loops on the leader only and hands them over when it stops', async () => {
    const events: string[] = [];
    const loop = (name: string): LeaderLoop => ({
      name: 'probe',
      async start() {
        events.push(`${name}:start`);
        return async () => {
          events.push(`${name}:stop`);
        };
      },
    });
    const a = new SchedulerRole([loop('a')], []);
    const b = new SchedulerRole([loop('b')], []);
    const stopA = await a.start(await runtime());
    const stopB = await b.start(await runtime());
    expect(events).toEqual(['a:start']);
    await stopA();
    await waitUntil(() => events.includes('b:start'));
    expect(events).toEqual(['a:start', 'a:stop', 'b:start']);
    await stopB();
    expect(events).toEqual(['a:start', 'a:stop', 'b:start', 'b:stop']);
  });

  it('refuses a part registered twice', () => {
    const loop: LeaderLoop = { name: 'monitor', start: async () => async () => undefined };
    expect(() => new SchedulerRole([loop, loop], [])).toThrow('scheduler: "monitor" is registered twice');
  });
});
