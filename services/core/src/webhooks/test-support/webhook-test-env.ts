import { Registry } from 'prom-client';
import { openDatabase, type Database } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { SecretBox } from '../../security/secret-box.js';
import { createTestDatabase, testLogger, type TestDatabase } from '../../test-support/test-services.js';
import { DeliveryDispatcher, type DeliverySettings } from '../delivery-dispatcher.js';
import { WebhookMetrics } from '../webhook-metrics.js';
import { WebhookService } from '../webhook-service.js';
import { countDeadDeliveries } from '../delivery-repository.js';

/** Fast retries so tests see a delivery go through its whole life in well under a second. */
export const fastDelivery: DeliverySettings = {
  timeoutMs: 1000,
  maxAttempts: 3,
  retryBaseMs: 40,
  retryMaxMs: 200,
  concurrency: 8,
  hostConcurrency: 4,
  pollIntervalMs: 20,
  leaseMs: 2000,
  allowLinkLocal: false,
  maxResponseBytes: 1024,
};

export interface WebhookTestEnv {
  db: Database;
  database: TestDatabase;
  secretBox: SecretBox;
  service: WebhookService;
  startDispatcher(overrides?: Partial<DeliverySettings>): { dispatcher: DeliveryDispatcher; metrics: WebhookMetrics; registry: Registry };
  stopDispatchers(): Promise<void>;
  close(): Promise<void>;
}

/** A migrated database, the webhook service, and dispatchers started on demand (all stopped by close()). */
export async function createWebhookTestEnv(timeZone = 'UTC', now?: () => Date): Promise<WebhookTestEnv> {
  const database = await createTestDatabase();
  const db = openDatabase(database.url, testLogger);
  await migrateToLatest(db, testLogger);
  const secretBox = new SecretBox('webhook-tests-secret-webhook-tests-secret');
  const dispatchers: DeliveryDispatcher[] = [];
  return {
    db,
    database,
    secretBox,
    service: new WebhookService(db, secretBox, timeZone, now),
    startDispatcher(overrides = {}) {
      const registry = new Registry();
      const metrics = new WebhookMetrics(registry, () => countDeadDeliveries(db));
      const dispatcher = new DeliveryDispatcher({
        db,
        secretBox,
        logger: testLogger,
        metrics,
        settings: { ...fastDelivery, ...overrides },
      });
      dispatcher.start();
      dispatchers.push(dispatcher);
      return { dispatcher, metrics, registry };
    },
    async stopDispatchers() {
      for (const dispatcher of dispatchers.splice(0)) await dispatcher.stop();
    },
    async close() {
      for (const dispatcher of dispatchers.splice(0)) await dispatcher.stop();
      await db.close();
      await database.drop();
    },
  };
}
