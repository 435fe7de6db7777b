import { createTestDatabase, testConfig, testLogger, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { call, type CallAnswer, type CallOptions } from '@reelstat/core/test-support/test-kit.js';
import { clientPasswordDigest, type Database } from '@reelstat/core';
import { findApiRole } from '@reelstat/api';
import { startProcess, type RunningProcess } from '../start-process.js';
import { answerProblems, findRoute } from './answer-check.js';

export interface ApiHarness {
  app: RunningProcess;
  database: TestDatabase;
  url: string;
  call(method: string, path: string, options?: CallOptions): Promise<CallAnswer>;
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
      const answer = await call(url, method, path, options);
      // Each answer is checked against its route's schema (answer-check.ts): drift fails the calling test.
      const definitions = findApiRole(app.roles)?.routes?.definitions ?? [];
      const definition = findRoute(definitions, method, path);
      const problems = definition ? answerProblems(definition, answer.status, answer.body, answer.headers.get('content-type')) : [];
      if (problems.length > 0) throw new Error(`the answer breaks its contract:\n${problems.join('\n')}`);
      return answer;
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

/**
 * A default media-server row that no process will call (a dead URL and a dummy sealed key): for tests that write
 * the history themselves and read it back through the API.
 */
export async function insertUnreachableServer(db: Pick<Database, 'query'>, serverId: string, name = 'sim'): Promise<void> {
  await db.query(
    `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, $2, 'jellyfin', 'http://x', 'v1.x', true)`,
    [serverId, name],
  );
}
