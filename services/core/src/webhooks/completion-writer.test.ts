import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { CompletionWriter } from './completion-writer.js';
import { claimDeliveries } from './delivery-repository.js';
import { enqueueForWebhook } from './webhook-events.js';
import { createWebhookTestEnv, type WebhookTestEnv } from './test-support/webhook-test-env.js';

describe('completion writer', () => {
  let env: WebhookTestEnv;
  beforeAll(async () => {
    env = await createWebhookTestEnv();
  });
  afterAll(async () => {
    await env.close();
  });

  it('writes the outcomes that finish together in one statement, each only while its lease is held', async () => {
    const webhook = await env.service.create({
      name: 'batch',
      url: 'http://127.0.0.1:9/hook',
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: 'playback_ended',
    });
    for (let i = 0; i < 30; i++) {
      await enqueueForWebhook(env.db, webhook.id, {
        event: 'test',
        server: null,
        occurred_at: new Date().toISOString(),
        data: { message: `m${i}` },
      });
    }
    const claimed = await claimDeliveries(env.db, 30, 60_000);
    expect(claimed).toHaveLength(30);

    const statements: string[] = [];
    const counting: Database = { ...env.db, query: (sql, bind, t) => (statements.push(sql), env.db.query(sql, bind, t)) };
    const writer = new CompletionWriter(counting);
    const [first, second, third, ...rest] = claimed;
    const outcomes = await Promise.all([
      writer.record({
        id: first!.id,
        lease_token: first!.lease_token,
        status: 'delivered',
        status_code: 200,
        error: null,
        retry_in_ms: null,
      }),
      writer.record({
        id: second!.id,
        lease_token: second!.lease_token,
        status: 'dead',
        status_code: 404,
        error: 'HTTP 404',
        retry_in_ms: null,
      }),
      writer.record({
        id: third!.id,
        lease_token: third!.lease_token,
        status: 'pending',
        status_code: 503,
        error: 'HTTP 503',
        retry_in_ms: 60_000,
      }),
      // A claim lost meanwhile (another dispatcher took the row over): not recorded.
      writer.record({
        id: rest[0]!.id,
        lease_token: first!.lease_token,
        status: 'delivered',
        status_code: 200,
        error: null,
        retry_in_ms: null,
      }),
      ...rest
        .slice(1)
        .map((d) =>
          writer.record({ id: d.id, lease_token: d.lease_token, status: 'delivered', status_code: 204, error: null, retry_in_ms: null }),
        ),
    ]);
    expect(statements).toHaveLength(1);
    expect(outcomes).toEqual([true, true, true, false, ...rest.slice(1).map(() => true)]);

    const rows = await env.db.query<{
      id: number;
      status: string;
      last_status_code: number | null;
      last_error: string | null;
      wait: number;
    }>(
      `SELECT id::int, status, last_status_code, last_error, extract(epoch FROM next_attempt_at - now())::float AS wait
       FROM webhook_deliveries WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[first!.id, second!.id, third!.id, rest[0]!.id]],
    );
    expect(rows.map(({ wait: _wait, ...row }) => row)).toEqual([
      { id: first!.id, status: 'delivered', last_status_code: 200, last_error: null },
      { id: second!.id, status: 'dead', last_status_code: 404, last_error: 'HTTP 404' },
      { id: third!.id, status: 'pending', last_status_code: 503, last_error: 'HTTP 503' },
      { id: rest[0]!.id, status: 'sending', last_status_code: null, last_error: null },
    ]);
    expect(rows[2]!.wait).toBeGreaterThan(30);
  });
});
