import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import { createAdmin, digest, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';
import { waitFor, type LogEntryBody } from '../../test/sync-harness.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** Nobody presses "sync": the libraries and the Automatic full sync run must appear by themselves. */
async function librariesShowUp(harness: ApiHarness, token: string): Promise<{ libraries: unknown[]; run: LogEntryBody }> {
  const libraries = await waitFor(async () => {
    const answer = (await harness.call('GET', '/api/getLibraries', { token })).body as unknown[];
    return answer.length > 0 ? answer : undefined;
  }, 'the libraries after linking');
  const run = await waitFor(async () => {
    const logs = (await harness.call('GET', '/logs/getLogs', { token })).body as LogEntryBody[];
    return logs.find((l) => l.Name === 'FullSyncTask' && l.Result === 'Success');
  }, 'the full sync to finish');
  return { libraries, run };
}

describe('a full sync starts as soon as a media server is linked', () => {
  let sim: Simulator;
  const harnesses: ApiHarness[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 5 });
  });
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.stop()));
  });
  afterAll(async () => {
    await sim.stop();
  });

  it('from the setup screen, then again when the settings change the link', async () => {
    const harness = await startApiHarness({ ROLES: 'api,scheduler' });
    harnesses.push(harness);
    const token = await createAdmin(harness);
    expect((await harness.call('POST', '/auth/configSetup', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } })).status).toBe(
      200,
    );
    const { libraries, run } = await librariesShowUp(harness, token);
    expect(libraries.length).toBe(4);
    expect(run.ExecutionType).toBe('Automatic');

    expect((await harness.call('POST', '/api/setconfig', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } })).status).toBe(200);
    const second = await waitFor(async () => {
      const logs = (await harness.call('GET', '/logs/getLogs', { token })).body as LogEntryBody[];
      const runs = logs.filter((l) => l.Name === 'FullSyncTask' && l.ExecutionType === 'Automatic');
      return runs.length === 2 && runs[0]!.Result !== 'Running' ? runs[0] : undefined;
    }, 'the second full sync');
    expect(second.Result).toBe('Success');
  });

  it('from the environment (MEDIA_SERVER_URL) at start-up', async () => {
    const harness = await startApiHarness({
      ROLES: 'api,scheduler',
      ADMIN_USERNAME: 'ops',
      ADMIN_PASSWORD: 'from-a-secret',
      MEDIA_SERVER_URL: sim.url,
      MEDIA_SERVER_API_KEY: sim.apiKey,
    });
    harnesses.push(harness);
    const login = await harness.call('POST', '/auth/login', { body: { username: 'ops', password: digest('from-a-secret') } });
    const { run } = await librariesShowUp(harness, (login.body as { token: string }).token);
    expect(run.ExecutionType).toBe('Automatic');
  });
});
