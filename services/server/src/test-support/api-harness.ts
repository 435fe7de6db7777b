import { createTestDatabase, testConfig, testLogger, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { clientPasswordDigest } from '@reelstat/core';
import { startProcess, type RunningProcess } from '../start-process.js';

export interface ApiHarness {
  app: RunningProcess;
  database: TestDatabase;
  url: string;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; apiKey?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  stop(): Promise<void>;
}

/** A real api process on a fresh database, called over HTTP like the dashboard does. */
export async function startApiHarness(env: Record<string, string> = {}): Promise<ApiHarness> {
  const database = await createTestDatabase();
  const app = await startProcess(testConfig({ DATABASE_URL: database.url, ROLES: 'api', UPDATE_CHECK_URL: '', ...env }), testLogger);
  const url = app.url;
  return {
    app,
    database,
    url,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.apiKey) headers['x-api-token'] = options.apiKey;
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body, headers: res.headers };
    },
    async stop() {
      await app.stop();
      await database.drop();
    },
  };
}

/** What the browser sends for a password. */
export const digest = clientPasswordDigest;

/** Creates the first administrator (username `admin`) and returns its token. */
export async function createAdmin(harness: Pick<ApiHarness, 'call'>, password = 'secret-1'): Promise<string> {
  const created = await harness.call('POST', '/auth/createuser', { body: { username: 'admin', password: digest(password) } });
  if (created.status !== 200) throw new Error(`creating the administrator failed: ${created.status} ${JSON.stringify(created.body)}`);
  return (created.body as { token: string }).token;
}
