import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe('API keys', () => {
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('creates a key shown once, lists it masked, accepts it in x-api-token, deletes it, then rejects it', async () => {
    const created = await harness.call('POST', '/api/keys', { token, body: { name: 'grafana' } });
    expect(created.status).toBe(201);
    const { key } = created.body as { name: string; key: string };
    expect(key).toMatch(/^rs_[\w-]{43}$/);

    const listed = (await harness.call('GET', '/api/keys', { token })).body as Array<{ id: number; name: string; key: string }>;
    expect(listed).toEqual([
      {
        id: expect.any(Number),
        name: 'grafana',
        key: `${key.slice(0, 8)}…`,
        created_at: expect.any(String),
        last_used_at: null,
        created_by: 'admin',
      },
    ]);
    const [stored] = await harness.app.runtime.db.query<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(stored)).not.toContain(key);

    expect((await harness.call('GET', '/api/getconfig', { apiKey: key })).status).toBe(200);
    const used = (await harness.call('GET', '/api/keys', { apiKey: key })).body as Array<{ last_used_at: string | null }>;
    expect(used[0]!.last_used_at).not.toBeNull();

    expect((await harness.call('DELETE', '/api/keys', { token, body: { key } })).body).toEqual({ message: 'API key deleted' });
    expect((await harness.call('GET', '/api/getconfig', { apiKey: key })).status).toBe(401);
    expect((await harness.call('GET', '/api/keys', { token })).body).toEqual([]);
    expect((await harness.call('DELETE', '/api/keys', { token, body: { key } })).status).toBe(404);
  });

  it('records who created a key: the administrator, another key, or anonymous while require-login is off', async () => {
    const { key } = (await harness.call('POST', '/api/keys', { token, body: { name: 'first' } })).body as { key: string };
    await harness.call('POST', '/api/keys', { apiKey: key, body: { name: 'by key' } });
    expect((await harness.call('POST', '/api/setRequireLogin', { token, body: { REQUIRE_LOGIN: false } })).status).toBe(200);
    await harness.call('POST', '/api/keys', { body: { name: 'open' } });
    expect((await harness.call('POST', '/api/setRequireLogin', { token, body: { REQUIRE_LOGIN: true } })).status).toBe(200);
    const listed = (await harness.call('GET', '/api/keys', { token })).body as Array<{ id: number; name: string; created_by: string }>;
    expect(listed.map(({ name, created_by }) => [name, created_by])).toEqual([
      ['first', 'admin'],
      ['by key', 'api-key:first'],
      ['open', 'anonymous'],
    ]);
    const createdAt = (listed as unknown as Array<{ created_at: string }>).map((row) => Date.parse(row.created_at));
    expect(createdAt.every((ms) => Math.abs(Date.now() - ms) < 60 * 60_000)).toBe(true);
    for (const row of listed) await harness.call('DELETE', '/api/keys', { token, body: { id: row.id } });
  });

  it('deletes by id from the masked listing', async () => {
    await harness.call('POST', '/api/keys', { token, body: { name: 'script' } });
    const [listed] = (await harness.call('GET', '/api/keys', { token })).body as Array<{ id: number }>;
    expect((await harness.call('DELETE', '/api/keys', { token, body: { id: listed!.id } })).status).toBe(200);
    expect((await harness.call('GET', '/api/keys', { token })).body).toEqual([]);
  });
});
