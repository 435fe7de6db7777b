// A dispatcher SIGKILLed in the middle of a delivery: another dispatcher takes the delivery over when the
// lease ends and completes it with the same idempotency key; nothing is lost.
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueForWebhook, migrateToLatest, openDatabase, SecretBox, WebhookService, type Database } from '@reelstat/core';
import { createTestDatabase, testLogger, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { eventually, TestReceiver } from '@reelstat/core/webhooks/test-support/test-receiver.js';
import { spawnReelstat, type SpawnedReelstat } from '@reelstat/server/test-support/spawn-reelstat.js';

describe('dispatcher killed mid-delivery', () => {
  let database: TestDatabase;
  let db: Database;
  let receiver: TestReceiver;
  const spawned: SpawnedReelstat[] = [];
  afterAll(async () => {
    for (const child of spawned) if (child.child.exitCode === null) child.child.kill('SIGKILL');
    await Promise.all(spawned.map((s) => s.exited));
    await receiver?.stop();
    await db?.close();
    await database?.drop();
  });

  it('the delivery completes on a second dispatcher with the same idempotency key', async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url, testLogger);
    await migrateToLatest(db, testLogger);
    const encryptionKey = 'w'.repeat(40);
    receiver = await new TestReceiver().start();
    // The first attempt never gets an answer: the process is killed while it waits.
    receiver.answerWith((_, index) => (index === 0 ? 'hang' : { status: 200 }));
    const service = new WebhookService(db, new SecretBox(encryptionKey), 'UTC');
    const webhook = await service.create({
      name: 'kill test',
      url: receiver.url(),
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: 'task_failed',
    });
    const deliveryId = await enqueueForWebhook(db, webhook.id, {
      event: 'task_failed',
      server: null,
      occurred_at: new Date().toISOString(),
      data: { task: 'FullSyncTask', error: 'boom' },
    });

    const env = {
      DATABASE_URL: database.url,
      ROLES: 'dispatcher',
      DATA_DIR: '/tmp/reelstat-dispatcher-kill-test',
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: encryptionKey,
      WEBHOOK_TIMEOUT_MS: '60000',
      WEBHOOK_LEASE_MS: '1500',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'warn',
    };
    const doomed = await spawnReelstat(env);
    spawned.push(doomed);
    await doomed.waitReady();
    await receiver.waitFor(1, 60_000);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const [leased] = await db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [
      deliveryId,
    ]);
    expect(leased).toEqual({ status: 'sending', attempts: 1 });

    const successor = await spawnReelstat(env);
    spawned.push(successor);
    await successor.waitReady();
    const [first, second] = await receiver.waitFor(2, 60_000);
    const row = await eventually(async () => {
      const [r] = await db.query<{ status: string; attempts: number; idempotency_key: string }>(
        'SELECT status, attempts, idempotency_key FROM webhook_deliveries WHERE id = $1',
        [deliveryId],
      );
      return r?.status === 'delivered' ? r : undefined;
    }, 30_000);
    expect(row.attempts).toBe(2);
    expect(first!.headers['idempotency-key']).toBe(row.idempotency_key);
    expect(second!.headers['idempotency-key']).toBe(row.idempotency_key);
    expect(second!.body).toBe(first!.body);
    expect(receiver.requests).toHaveLength(2);
  }, 180_000);
});
