import { describe, expect, it } from 'vitest';
import { spawnReelstat } from './test-support/spawn-reelstat.js';

describe('start-up with bad configuration', () => {
  it.each([
    [{ PORT: 'abc' }, /PORT: must be a number/],
    [{ TZ: 'Nowhere/Land' }, /TZ: must be an IANA time zone/],
    [{ ROLES: 'api,frontend' }, /ROLES.*must be one of api, scheduler, dispatcher, operator/],
    [{ DATABASE_URL: 'http://db' }, /DATABASE_URL: must be a URL starting with postgres:/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL: must be a URL starting with redis:/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL: must be one of/],
    [{ JWT_SECRET_FILE: '/does/not/exist' }, /JWT_SECRET_FILE: cannot read \/does\/not\/exist/],
  ])('%o stops with a clear message and exit code 1', async (env, message) => {
    const app = await spawnReelstat({ DATA_DIR: '/tmp/reelstat-bad-config', ...env });
    expect(await app.exited).toBe(1);
    expect(app.output()).toMatch(/^Invalid configuration:/m);
    expect(app.output()).toMatch(message);
  });

  it('lists every bad variable at once', async () => {
    const app = await spawnReelstat({ DATA_DIR: '/tmp/reelstat-bad-config', PORT: '99999', TZ: 'x', BASE_URL: 'relative' });
    expect(await app.exited).toBe(1);
    const lines = app
      .output()
      .split('\n')
      .filter((line) => line.startsWith('  - '));
    expect(lines).toHaveLength(3);
  });

  it('rejects an unknown role on the command line', async () => {
    const app = await spawnReelstat({ DATA_DIR: '/tmp/reelstat-bad-config' }, ['--roles', 'api,nope']);
    expect(await app.exited).toBe(1);
    expect(app.output()).toMatch(/ROLES/);
  });
});
