// OpenTelemetry traces of a real process (the entry point, spawned as `npm start` runs it) exported to a local
// OTLP/HTTP receiver: an API request and a sync arrive as traces whose database, Redis and media-server spans
// hang from them through their parent links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import {
  createTestDatabase,
  testRedisUrl,
  uniqueRedisPrefix,
  waitUntil,
  type TestDatabase,
} from '@reelstat/core/test-support/test-services.js';
import { digest } from '../test-support/api-harness.js';
import { descendantsOf, startOtlpReceiver, type ReceivedSpan } from '../test-support/otlp-receiver.js';
import { spawnReelstat, type SpawnedReelstat } from '../test-support/spawn-reelstat.js';
import { tracingRequested } from './tracing-requested.js';

const SERVER = 2;
const CLIENT = 3;

describe('OpenTelemetry traces', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let database: TestDatabase;
  let sim: RunningSimulator;
  let app: SpawnedReelstat;
  let token: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  };
  const path = (span: ReceivedSpan) => String(span.attributes['url.path'] ?? span.attributes['http.target'] ?? '');
  const waitForSpan = async (what: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> => {
    await waitUntil(() => receiver.spans.some(what), 30_000, 100);
    return receiver.spans.find(what)!;
  };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await createTestDatabase();
    sim = await startSimulator({ flavor: 'jellyfin', scale: 'tiny', seed: 5 });
    app = await spawnReelstat({
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: uniqueRedisPrefix(),
      ROLES: 'api,scheduler',
      JWT_SECRET: 'x'.repeat(40),
      DATA_DIR: '/tmp/reelstat-tracing-test',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'reelstat-tracing-test',
      // Export each batch at once rather than every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    await app.waitReady();
    const created = await call('POST', '/auth/createuser', { username: 'admin', password: digest('secret-1') });
    token = (created.body as { token: string }).token;
    expect((await call('POST', '/auth/configSetup', { JF_HOST: sim.url, JF_API_KEY: sim.apiKey })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    if (app && app.child.exitCode === null) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
    await sim?.stop();
    await database?.drop();
    await receiver?.close();
  });

  it('traces an API request: the server span, with its PostgreSQL queries below it', async () => {
    expect((await call('GET', '/api/getLibraries')).status).toBe(200);
    const request = await waitForSpan((span) => span.kind === SERVER && path(span) === '/api/getLibraries');
    expect(request.parentSpanId).toBeUndefined();
    expect(request.attributes['http.response.status_code'] ?? request.attributes['http.status_code']).toBe(200);
    await waitUntil(() => descendantsOf(receiver.spans, request).some((span) => span.scope.includes('instrumentation-pg')), 30_000, 100);
    const queries = descendantsOf(receiver.spans, request).filter((span) => span.scope.includes('instrumentation-pg'));
    expect(queries.some((span) => /SELECT/i.test(String(span.attributes['db.statement'] ?? span.attributes['db.query.text'] ?? '')))).toBe(
      true,
    );
    // Probes and scrapes are not traced.
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    expect(receiver.spans.some((span) => path(span) === '/readyz')).toBe(false);
  }, 60_000);

  it('traces a sync: a root task span with the media server calls, queries and Redis commands below it', async () => {
    // Linking the server started a full sync; its span ends when the run does.
    const sync = await waitForSpan((span) => span.name === 'task FullSyncTask');
    expect(sync.parentSpanId).toBeUndefined();
    expect(sync.attributes['reelstat.task']).toBe('FullSyncTask');
    await waitUntil(
      () => {
        const below = descendantsOf(receiver.spans, sync);
        return ['instrumentation-undici', 'instrumentation-pg', 'instrumentation-ioredis'].every((scope) =>
          below.some((span) => span.scope.includes(scope)),
        );
      },
      30_000,
      100,
    );
    const simPort = new URL(sim.url).port;
    const calls = descendantsOf(receiver.spans, sync).filter((span) => span.scope.includes('instrumentation-undici'));
    expect(calls.every((span) => span.kind === CLIENT)).toBe(true);
    expect(calls.some((span) => String(span.attributes['url.full'] ?? '').includes(`:${simPort}/`))).toBe(true);
  }, 60_000);

  it('stops cleanly on SIGTERM, with tracing on', async () => {
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  }, 60_000);

  it('starts tracing only when an OTLP endpoint is configured', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });
});
