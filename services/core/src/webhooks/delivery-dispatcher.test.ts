import { createHmac } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueWebhookEvents, type WebhookEvent } from './webhook-events.js';
import { DELIVERY_CHANNEL } from './delivery-wakeup.js';
import { createWebhookTestEnv, type WebhookTestEnv } from './test-support/webhook-test-env.js';
import { eventually, TestReceiver } from './test-support/test-receiver.js';

const server = { id: '00000000-0000-4000-8000-000000000001', name: 'Home Jellyfin' };

function playEnded(user = 'u1', playMethod = 'Transcode'): WebhookEvent & { event: 'playback_ended' } {
  return {
    event: 'playback_ended',
    server,
    occurred_at: '2026-11-20T21:00:00.000Z',
    data: {
      play_key: `k-${user}`,
      user: { id: user, name: `User ${user}` },
      item: { id: 'ep1', name: 'Pilot', type: 'Episode', series_name: 'Severance', season_number: 1, episode_number: 1 },
      library_id: 'lib-tv',
      client: 'Jellyfin Web',
      device_name: 'Firefox',
      play_method: playMethod,
      started_at: '2026-11-20T20:00:00.000Z',
      ended_at: '2026-11-20T20:55:00.000Z',
      played_seconds: 3125,
      paused_seconds: 175,
    },
  };
}

interface DeliveryRow {
  id: number;
  status: string;
  attempts: number;
  idempotency_key: string;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date;
}

describe('webhook delivery by the dispatcher', () => {
  let env: WebhookTestEnv;
  let receiver: TestReceiver;
  beforeAll(async () => {
    env = await createWebhookTestEnv();
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(async () => {
    await env.stopDispatchers();
    await receiver?.stop();
    receiver = await new TestReceiver().start();
    await env.db.query('DELETE FROM webhooks');
  });

  const deliveries = (webhookId: number) =>
    env.db.query<DeliveryRow>(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id`, [webhookId]);

  async function eventWebhook(type: 'generic' | 'discord', extra: Record<string, unknown> = {}) {
    return env.service.create({
      name: `${type} hook`,
      url: receiver.url(),
      webhook_type: type,
      trigger_type: 'event',
      event_type: 'playback_ended',
      ...extra,
    });
  }

  it('sends a generic event signed with HMAC-SHA256 over timestamp and body, with the idempotency key', async () => {
    const webhook = await eventWebhook('generic', { secret: 'shared-secret' });
    expect(webhook.has_secret).toBe(true);
    expect(JSON.stringify(webhook)).not.toContain('shared-secret');
    const [stored] = await env.db.query<{ secret_encrypted: string }>('SELECT secret_encrypted FROM webhooks WHERE id = $1', [webhook.id]);
    expect(stored!.secret_encrypted).not.toContain('shared-secret');

    await env.db.sequelize.transaction((t) => enqueueWebhookEvents(env.db, t, [playEnded()]));
    env.startDispatcher();
    const [request] = await receiver.waitFor(1);
    const timestamp = request!.headers['x-reelstat-timestamp'] as string;
    const expected = `sha256=${createHmac('sha256', 'shared-secret').update(`${timestamp}.${request!.body}`).digest('hex')}`;
    expect(request!.headers['x-reelstat-signature']).toBe(expected);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(120);
    const [row] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(request!.headers['idempotency-key']).toBe(row!.idempotency_key);
    expect(request!.headers['x-reelstat-delivery']).toBe(row!.idempotency_key);
    expect(request!.json()).toEqual({
      event: 'playback_ended',
      delivery_id: row!.idempotency_key,
      occurred_at: '2026-11-20T21:00:00.000Z',
      server,
      data: playEnded().data,
    });
    expect(row!.attempts).toBe(1);
    expect(row!.last_status_code).toBe(200);
  });

  it('sends to the whole URL of a webhook whose URL holds a credential, which answers show masked', async () => {
    const webhook = await env.service.create({
      name: 'home assistant',
      url: receiver.url('/api/webhook/reelstat-8f2a'),
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: 'playback_ended',
    });
    expect(webhook.url).toBe(receiver.url('/api/webhook/********'));
    await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
    env.startDispatcher();
    const [request] = await receiver.waitFor(1);
    expect(request!.path).toBe('/api/webhook/reelstat-8f2a');
  });

  it('sends Discord an embed within its limits', async () => {
    const webhook = await eventWebhook('discord');
    await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
    env.startDispatcher();
    const [request] = await receiver.waitFor(1);
    const body = request!.json() as {
      embeds: Array<{ title: string; description: string; fields: Array<{ name: string; value: string }> }>;
    };
    expect(body.embeds).toHaveLength(1);
    const [embed] = body.embeds;
    expect(embed!.title).toBe('■ Severance S01E01 · Pilot');
    expect(embed!.description).toBe('User u1 watched Severance S01E01 · Pilot for 52 min 05 s on Home Jellyfin');
    expect(embed!.fields).toContainEqual({ name: 'Play method', value: 'Transcode', inline: true });
    await eventually(async () => (await deliveries(webhook.id))[0]?.status === 'delivered');
  });

  it('queues only for enabled event webhooks of that event whose filters match', async () => {
    const all = await eventWebhook('generic');
    const onlyU2 = await eventWebhook('generic', { filters: { users: ['u2'] } });
    const onlyDirect = await eventWebhook('generic', { filters: { play_methods: ['DirectPlay'] } });
    const disabled = await eventWebhook('generic', { enabled: false });
    const otherEvent = await eventWebhook('generic', { event_type: 'playback_started' });
    const queued = await enqueueWebhookEvents(env.db, undefined, [playEnded('u1', 'Transcode'), playEnded('u2', 'DirectPlay')]);
    expect(queued).toBe(4);
    const count = async (id: number) => (await deliveries(id)).length;
    expect([
      await count(all.id),
      await count(onlyU2.id),
      await count(onlyDirect.id),
      await count(disabled.id),
      await count(otherEvent.id),
    ]).toEqual([2, 1, 1, 0, 0]);
  });

  it('nothing is queued when the transaction of the cause rolls back', async () => {
    const webhook = await eventWebhook('generic');
    await expect(
      env.db.sequelize.transaction(async (t) => {
        await enqueueWebhookEvents(env.db, t, [playEnded()]);
        throw new Error('the history write failed');
      }),
    ).rejects.toThrow('the history write failed');
    expect(await deliveries(webhook.id)).toEqual([]);
  });

  it('retries a 500 and a hang with the same idempotency key, then succeeds', async () => {
    receiver.answerWith((_, index) => (index === 0 ? { status: 500, body: 'boom' } : index === 1 ? 'hang' : { status: 204 }));
    const webhook = await eventWebhook('generic');
    await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
    env.startDispatcher({ timeoutMs: 300 });
    const requests = await receiver.waitFor(3);
    const [row] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(new Set(requests.map((r) => r.headers['idempotency-key']))).toEqual(new Set([row!.idempotency_key]));
    expect(row!.attempts).toBe(3);
    expect(row!.last_status_code).toBe(204);
  });

  it("honours a 429's Retry-After", async () => {
    receiver.answerWith(() => ({ status: 429, headers: { 'retry-after': '120' } }));
    const webhook = await eventWebhook('generic');
    await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
    env.startDispatcher();
    const [row] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'pending' && rows[0].attempts === 1 && rows;
    });
    const [{ wait }] = (await env.db.query<{ wait: number }>(
      `SELECT extract(epoch FROM next_attempt_at - now())::float AS wait FROM webhook_deliveries WHERE id = $1`,
      [row!.id],
    )) as [{ wait: number }];
    // Retry-After asked for two minutes; the backoff alone would have said at most 200 ms.
    expect(wait).toBeGreaterThan(100);
    expect(row!.last_status_code).toBe(429);
    expect(receiver.requests).toHaveLength(1);
  });

  it('marks a delivery dead after the attempt limit; a retry sends it again with the same key', async () => {
    receiver.answerWith(() => ({ status: 503, body: 'down for maintenance' }));
    const webhook = await eventWebhook('generic');
    await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
    const { registry } = env.startDispatcher();
    const [dead] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'dead' && rows;
    });
    expect(dead!.attempts).toBe(3);
    expect(dead!.last_error).toBe('HTTP 503: down for maintenance');
    expect(receiver.requests).toHaveLength(3);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/reelstat_webhook_deliveries_total\{type="generic",outcome="retry"\} 2/);
    expect(metrics).toMatch(/reelstat_webhook_deliveries_total\{type="generic",outcome="dead"\} 1/);
    expect(metrics).toMatch(/reelstat_webhook_dead_deliveries 1/);

    receiver.answerWith(() => ({ status: 200 }));
    await expect(env.service.retryDelivery(webhook.id, dead!.id)).resolves.toEqual({ message: `Delivery ${dead!.id} queued again` });
    await expect(env.service.retryDelivery(webhook.id, dead!.id)).rejects.toMatchObject({ status: 409 });
    const [delivered] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(receiver.requests).toHaveLength(4);
    expect(receiver.requests[3]!.headers['idempotency-key']).toBe(dead!.idempotency_key);
    expect(delivered!.idempotency_key).toBe(dead!.idempotency_key);
  });

  it('does not retry a 4xx refusal', async () => {
    receiver.answerWith(() => ({ status: 404, body: 'unknown webhook' }));
    const webhook = await eventWebhook('generic');
    await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
    env.startDispatcher();
    const [dead] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'dead' && rows;
    });
    expect(dead!.attempts).toBe(1);
    expect(dead!.last_status_code).toBe(404);
  });

  it('refuses link-local targets, follows same-host redirects only', async () => {
    const metadata = await env.service.create({
      name: 'metadata',
      url: 'http://169.254.169.254/latest',
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: 'playback_ended',
    });
    const other = await new TestReceiver().start();
    try {
      receiver.answerWith((request) =>
        request.path === '/hook'
          ? { status: 307, headers: { location: '/moved' } }
          : request.path === '/moved'
            ? { status: 308, headers: { location: other.url('/elsewhere').replace('127.0.0.1', 'localhost') } }
            : { status: 200 },
      );
      const redirected = await eventWebhook('generic');
      await enqueueWebhookEvents(env.db, undefined, [playEnded()]);
      env.startDispatcher();
      const refused = await eventually(async () => {
        const rows = await deliveries(metadata.id);
        return rows[0]?.status === 'dead' && rows[0];
      });
      expect(refused.last_error).toContain('link-local address 169.254.169.254');
      const bounced = await eventually(async () => {
        const rows = await deliveries(redirected.id);
        return rows[0]?.status === 'dead' && rows[0];
      });
      expect(bounced.last_error).toMatch(/^redirect to another host \(localhost:\d+\) not followed$/);
      expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/moved']);
      expect(other.requests).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  it('an idle dispatcher is woken by a queued delivery and by a retried dead one, without polling', async () => {
    receiver.answerWith((_, index) => (index === 0 ? { status: 410, body: 'gone' } : { status: 200 }));
    const webhook = await eventWebhook('generic');
    // Polling once a minute: only PostgreSQL's notification can bring these deliveries out within the deadline.
    const { dispatcher } = env.startDispatcher({ pollIntervalMs: 60_000 });
    await eventually(async () => dispatcher.idle, 20_000, 'the dispatcher to listen and sleep');
    await env.db.sequelize.transaction((t) => enqueueWebhookEvents(env.db, t, [playEnded()]));
    const [dead] = await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows[0]?.status === 'dead' && rows;
    });
    await eventually(async () => dispatcher.idle, 20_000, 'the dispatcher to sleep again');
    await env.service.retryDelivery(webhook.id, dead!.id);
    await eventually(async () => (await deliveries(webhook.id))[0]?.status === 'delivered');
    expect(receiver.requests).toHaveLength(2);
  });

  it('an event no webhook wants does not wake the dispatchers', async () => {
    await eventWebhook('generic', { event_type: 'playback_started' });
    const payloads: string[] = [];
    const listener = new pg.Client({ connectionString: env.database.url });
    await listener.connect();
    try {
      listener.on('notification', (message) => payloads.push(message.payload ?? ''));
      await listener.query(`LISTEN ${DELIVERY_CHANNEL}`);
      expect(await enqueueWebhookEvents(env.db, undefined, [playEnded()])).toBe(0);
      // Notifications arrive in commit order: once this marker is here, a wake-up of the enqueue would be too.
      await env.db.query(`SELECT pg_notify($1, 'marker')`, [DELIVERY_CHANNEL]);
      await eventually(async () => payloads.includes('marker'));
      expect(payloads).toEqual(['marker']);
      await env.service.test((await env.service.list())[0]!.id);
      await eventually(async () => payloads.length === 2);
      expect(payloads).toEqual(['marker', '']);
    } finally {
      await listener.end();
    }
  });

  it('sends many deliveries to one host over a few kept-alive connections', async () => {
    const webhook = await eventWebhook('generic');
    expect(
      await enqueueWebhookEvents(
        env.db,
        undefined,
        Array.from({ length: 40 }, (_, i) => playEnded(`u${i}`)),
      ),
    ).toBe(40);
    env.startDispatcher({ hostConcurrency: 2 });
    await receiver.waitFor(40);
    await eventually(async () => {
      const rows = await deliveries(webhook.id);
      return rows.every((row) => row.status === 'delivered');
    });
    expect(receiver.connections).toBeLessThanOrEqual(2);
  });

  it('two dispatchers on one database never send one delivery twice, and respect the per-host limit', async () => {
    receiver.delayMs = 5;
    const webhook = await eventWebhook('generic');
    const events = Array.from({ length: 150 }, (_, i) => playEnded(`u${i}`));
    expect(await enqueueWebhookEvents(env.db, undefined, events)).toBe(150);
    env.startDispatcher({ hostConcurrency: 3 });
    env.startDispatcher({ hostConcurrency: 3 });
    await receiver.waitFor(150);
    await eventually(async () => {
      const [row] = await env.db.query<{ delivered: number }>(
        `SELECT count(*)::int AS delivered FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'delivered'`,
        [webhook.id],
      );
      return row!.delivered === 150;
    });
    const keys = receiver.requests.map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(150);
    expect(keys).toHaveLength(150);
    // Each dispatcher sends at most 3 at a time to this host.
    expect(receiver.maxOpen).toBeLessThanOrEqual(6);
  });
});
