// A stored media-server key that cannot be decrypted (ENCRYPTION_KEY changed since it was saved, or a damaged
// value) must not take the dashboard down: the configuration still loads and says what to do, what needs the
// key fails with that message, and entering the key again in Settings mends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { SecretBox, openDatabase, type Database } from '@reelstat/core';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { createAdmin, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

interface Config {
  JF_HOST: string | null;
  MEDIA_SERVER_KEY_ERROR?: string | null;
}

describe('a media-server key that cannot be decrypted', () => {
  let sim: RunningSimulator;
  let harness: ApiHarness;
  let db: Database;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => harness.call(method, path, { token, body });

  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 31 });
    harness = await startApiHarness();
    token = await createAdmin(harness);
    db = openDatabase(harness.database.url, testLogger);
    const linked = await call('POST', '/auth/configSetup', { JF_HOST: sim.url, JF_API_KEY: sim.apiKey });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  });
  afterAll(async () => {
    await db?.close();
    await harness?.stop();
    await sim?.stop();
  });

  it('reads no error while the key opens', async () => {
    const config = await call('GET', '/api/getconfig');
    expect(config.status).toBe(200);
    expect((config.body as Config).MEDIA_SERVER_KEY_ERROR).toBeNull();
  });

  it('still answers the configuration, names the problem, refuses what needs the key, and is mended by entering it again', async () => {
    // Sealed with another secret: what a changed ENCRYPTION_KEY looks like to this process.
    await db.query('UPDATE media_servers SET api_key_encrypted = $1', [new SecretBox('another secret').seal(sim.apiKey)]);

    const config = await call('GET', '/api/getconfig');
    expect(config.status, JSON.stringify(config.body)).toBe(200);
    expect((config.body as Config).JF_HOST).toBe(sim.url);
    expect((config.body as Config).MEDIA_SERVER_KEY_ERROR).toMatch(/cannot be read .*ENCRYPTION_KEY.*enter its API key again in Settings/);

    const servers = await call('GET', '/api/mediaServers');
    expect(servers.status).toBe(200);
    const [server] = servers.body as Array<{ Id: string; ApiKeyError?: string | null }>;
    expect(server!.ApiKeyError).toMatch(/enter its API key again in Settings/);
    const tested = await call('POST', `/api/mediaServers/${server!.Id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be read/) });
    const edited = await call('PUT', `/api/mediaServers/${server!.Id}`, { Url: sim.url });
    expect(edited.status).toBe(409);
    expect(edited.body).toMatchObject({ message: expect.stringMatching(/enter its API key again in Settings/) });

    const mended = await call('POST', '/api/setconfig', { JF_HOST: sim.url, JF_API_KEY: sim.apiKey });
    expect(mended.status, JSON.stringify(mended.body)).toBe(200);
    const after = await call('GET', '/api/getconfig');
    expect((after.body as Config).MEDIA_SERVER_KEY_ERROR).toBeNull();
    const listed = await call('GET', '/api/mediaServers');
    expect((listed.body as Array<{ ApiKeyError?: string | null }>)[0]!.ApiKeyError).toBeNull();
  });
});
