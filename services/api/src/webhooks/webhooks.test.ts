import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe('webhook calls (SPEC.md §7)', () => {
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startApiHarness({ TZ: 'Europe/Paris' });
    token = await createAdmin(harness);
  });
  afterAll(async () => {
    await harness.stop();
  });

  const call = (method: string, path: string, body?: unknown) => harness.call(method, path, { token, body });
  const count = async () => (await harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks'))[0]!.n;

  it('answers every bad input with a 400 and SPEC.md’s message, saving nothing', async () => {
    const cases: Array<[unknown, string | RegExp]> = [
      [{ name: 'no url' }, 'Webhook URL is required'],
      [{ name: 'blank url', url: '   ' }, 'Webhook URL is required'],
      [{ name: 'no event', url: 'http://127.0.0.1:9/x', trigger_type: 'event' }, 'Event type is required for an event based webhook'],
      [{ url: 'http://127.0.0.1:9/x' }, 'Webhook name is required'],
      [{ name: 'cron', url: 'http://127.0.0.1:9/x', schedule: '61 * * * *' }, /^Invalid schedule "61 \* \* \* \*"/],
      [{ name: 'cron', url: 'http://127.0.0.1:9/x', schedule: '* * * * * *' }, /five fields/],
      [
        { name: 'type', url: 'http://127.0.0.1:9/x', webhook_type: 'pager' },
        /^Invalid request: body\.webhook_type: must be one of discord, generic/,
      ],
      [{ name: 'event', url: 'http://127.0.0.1:9/x', trigger_type: 'event', event_type: 'played' }, /body\.event_type: must be one of/],
      [{ name: 'scheme', url: 'ftp://example.org/x' }, /needs an http:\/\/ or https:\/\/ URL/],
      [{ name: 'mail', url: 'smtp://127.0.0.1:25', webhook_type: 'email' }, 'An email webhook needs the options "from" and "to"'],
      [
        { name: 'tg', url: 'https://api.telegram.org', webhook_type: 'telegram', options: { chat_id: '1' } },
        'A telegram webhook needs the bot token as its secret',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as { message: string }).message).toMatch(message);
      expect((answer.body as { code: string }).code).toBe('bad_request');
    }
    expect(await count()).toBe(0);
  });

  it('keeps URLs that hold tokens sealed: shown masked, kept on edit, replaced only by a whole URL', async () => {
    const { db, services } = harness.app.runtime;
    const stored = async (id: number) =>
      (await db.query<{ url: string; url_encrypted: string | null }>('SELECT url, url_encrypted FROM webhooks WHERE id = $1', [id]))[0]!;
    const url = 'https://discord.com/api/webhooks/123456/secret-token-abc';
    const shown = 'https://discord.com/api/webhooks/123456/********';
    const created = await call('POST', '/webhooks', { name: 'Discord', url, trigger_type: 'event', event_type: 'playback_ended' });
    expect(created.status).toBe(200);
    const { id } = created.body as { id: number };
    expect(created.body).toMatchObject({ url: shown });
    expect(JSON.stringify((await call('GET', '/webhooks')).body)).not.toContain('secret-token-abc');
    expect((await stored(id)).url).toBe(shown);
    expect((await stored(id)).url_encrypted).not.toContain('secret-token-abc');
    expect(services.secretBox.open((await stored(id)).url_encrypted!)).toBe(url);

    // The form sends back what it was shown: the token stays.
    const renamed = await call('PUT', `/webhooks/${id}`, { name: 'Renamed', url: shown });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', url: shown });
    expect(services.secretBox.open((await stored(id)).url_encrypted!)).toBe(url);

    // Another webhook id with the old token: the hidden part cannot be completed, so nothing is saved.
    const bad = await call('PUT', `/webhooks/${id}`, { name: 'Moved', url: 'https://discord.com/api/webhooks/999/********' });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/enter the whole URL again/);
    expect(await stored(id)).toMatchObject({ url: shown });
    expect((await call('GET', '/webhooks')).body).toContainEqual(expect.objectContaining({ id, name: 'Renamed' }));
    const copied = await call('POST', '/webhooks', { name: 'Copy', url: shown });
    expect(copied.status).toBe(400);
    expect((copied.body as { message: string }).message).toMatch(/enter the whole URL again/);

    // A whole new URL replaces it; a URL without a credential is kept as it is.
    await call('PUT', `/webhooks/${id}`, { url: 'https://discord.com/api/webhooks/123456/new-token' });
    expect(services.secretBox.open((await stored(id)).url_encrypted!)).toBe('https://discord.com/api/webhooks/123456/new-token');
    const plain = await call('PUT', `/webhooks/${id}`, { url: 'http://127.0.0.1:9/plain' });
    expect(plain.body).toMatchObject({ url: 'http://127.0.0.1:9/plain' });
    expect(await stored(id)).toEqual({ url: 'http://127.0.0.1:9/plain', url_encrypted: null });
    expect((await call('DELETE', `/webhooks/${id}`)).status).toBeLessThan(300);
  });

  it('creates with SPEC.md’s defaults, lists with the next three runs, updates, tests and deletes', async () => {
    const created = await call('POST', '/webhooks', { name: 'Monthly', url: 'http://127.0.0.1:9/discord' });
    expect(created.status).toBe(200);
    const webhook = created.body as Record<string, unknown> & { id: number };
    expect(webhook).toMatchObject({
      name: 'Monthly',
      webhook_type: 'discord',
      trigger_type: 'scheduled',
      event_type: null,
      schedule: '0 9 1 * *',
      method: 'POST',
      enabled: true,
      has_secret: false,
    });
    // 09:00 in Paris on day 1 of the next three months.
    const runs = webhook.next_runs as string[];
    expect(runs).toHaveLength(3);
    for (const run of runs) {
      const local = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Paris',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(run));
      expect(local.replace(',', '')).toBe('1 09:00');
    }

    const listed = (await call('GET', '/webhooks')).body as Array<{ id: number }>;
    expect(listed.map((w) => w.id)).toEqual([webhook.id]);

    // SPEC.md §4: the form posts with an id to update; a toggle flips enabled with PUT.
    const edited = await call('POST', '/webhooks', { id: webhook.id, name: 'Renamed', url: 'http://127.0.0.1:9/discord' });
    expect(edited.body).toMatchObject({ id: webhook.id, name: 'Renamed', schedule: '0 9 1 * *' });
    const disabled = await call('PUT', `/webhooks/${webhook.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ id: webhook.id, name: 'Renamed', enabled: false, next_runs: [] });
    expect((await call('PUT', `/webhooks/${webhook.id}`, { url: '' })).body).toMatchObject({
      status: 400,
      message: 'Webhook URL is required',
    });

    const tested = await call('POST', `/webhooks/${webhook.id}/test`);
    expect(tested.body).toEqual({ message: 'Webhook Renamed test triggered successfully!', delivery_id: expect.any(Number) });
    const log = (await call('GET', `/webhooks/${webhook.id}/deliveries`)).body as {
      results: Array<Record<string, unknown>>;
      pages: number;
    };
    expect(log.pages).toBe(1);
    expect(log.results).toEqual([
      expect.objectContaining({
        id: (tested.body as { delivery_id: number }).delivery_id,
        event: 'test',
        attempts: 0,
        idempotency_key: expect.any(String),
      }),
    ]);
    expect(['pending', 'sending', 'delivered', 'dead']).toContain(log.results[0]!.status);
    expect((await call('POST', `/webhooks/${webhook.id}/deliveries/999999/retry`)).status).toBe(404);

    expect((await call('DELETE', `/webhooks/${webhook.id}`)).body).toEqual({ message: 'Webhook deleted' });
    expect((await call('DELETE', `/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await call('POST', `/webhooks/${webhook.id}/test`)).status).toBe(404);
    expect((await call('GET', '/webhooks/abc/deliveries')).status).toBe(400);
  });

  it('keeps secrets sealed and never returns them; a generic webhook without one gets a generated secret once', async () => {
    const generic = (
      await call('POST', '/webhooks', {
        name: 'Signed',
        url: 'http://127.0.0.1:9/g',
        webhook_type: 'generic',
        trigger_type: 'event',
        event_type: 'playback_started',
      })
    ).body as { id: number; generated_secret: string; has_secret: boolean };
    expect(generic.generated_secret).toMatch(/^[\w-]{43}$/);
    expect(generic.has_secret).toBe(true);
    const telegram = (
      await call('POST', '/webhooks', {
        name: 'TG',
        url: 'https://api.telegram.org',
        webhook_type: 'telegram',
        options: { chat_id: '42' },
        secret: '123:bot-token',
      })
    ).body as { id: number };
    const listing = JSON.stringify((await call('GET', '/webhooks')).body);
    expect(listing).not.toContain(generic.generated_secret);
    expect(listing).not.toContain('bot-token');
    expect(listing).not.toContain('generated_secret');
    const stored = JSON.stringify(await harness.app.runtime.db.query('SELECT * FROM webhooks'));
    expect(stored).not.toContain('bot-token');
    expect(stored).not.toContain(generic.generated_secret);
    // Leaving the secret out keeps it; an empty one removes it.
    expect((await call('PUT', `/webhooks/${telegram.id}`, { name: 'TG 2' })).body).toMatchObject({ has_secret: true });
    expect((await call('PUT', `/webhooks/${generic.id}`, { secret: '' })).body).toMatchObject({ has_secret: false });
  });

  it('previews a cron text in the server time zone and refuses a bad one', async () => {
    const preview = await call('POST', '/webhooks/schedule-preview', { schedule: '30 18 * * 5' });
    expect(preview.body).toMatchObject({ time_zone: 'Europe/Paris' });
    const runs = (preview.body as { next_runs: string[] }).next_runs.map((r) => new Date(r));
    expect(runs).toHaveLength(3);
    expect(runs[1]!.getTime() - runs[0]!.getTime()).toBeGreaterThanOrEqual(6 * 86_400_000);
    for (const run of runs)
      expect(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Paris',
          weekday: 'long',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(run),
      ).toBe('Friday 18:30');
    expect((await call('POST', '/webhooks/schedule-preview', { schedule: 'every day' })).status).toBe(400);
  });

  it('requires authentication', async () => {
    expect((await harness.call('GET', '/webhooks')).status).toBe(401);
    expect((await harness.call('POST', '/webhooks', { body: { name: 'x', url: 'http://x' } })).status).toBe(401);
  });
});
