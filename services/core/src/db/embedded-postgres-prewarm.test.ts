import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from './embedded-postgres.js';

/**
 * The embedded cluster preloads pg_prewarm (the binaries of this platform ship it): its autoprewarm worker keeps
 * the list of the pages in shared buffers at shutdown and loads them again after the next start, so the first
 * calls after a restart do not read their pages one by one.
 */
describe('embedded PostgreSQL keeps its buffers across a restart', () => {
  let dir: string;
  let server: EmbeddedPostgres;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-embedded-prewarm-'));
    server = new EmbeddedPostgres(dir, pino({ level: 'silent' }), { sharedBuffers: '160MB' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const withClient = async <T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  };

  it('starts with pg_prewarm preloaded and reloads the saved pages after a restart', async () => {
    const url = await server.start();
    const first = await withClient(url, async (client) => {
      const { rows } = await client.query<{ libraries: string; buffers: string }>(
        `SELECT current_setting('shared_preload_libraries') AS libraries, current_setting('shared_buffers') AS buffers`,
      );
      // EMBEDDED_POSTGRES_SHARED_BUFFERS reaches the server's command line.
      expect(rows[0]?.buffers).toBe('160MB');
      await client.query('CREATE EXTENSION pg_buffercache');
      await client.query('CREATE TABLE warm (id int PRIMARY KEY, note text)');
      await client.query(`INSERT INTO warm SELECT n, repeat('x', 200) FROM generate_series(1, 5000) AS n`);
      return rows[0]?.libraries;
    });
    expect(first).toBe('pg_prewarm');

    // A fast shutdown writes the buffer list into the cluster.
    await server.stop();
    expect(existsSync(path.join(dir, 'cluster', 'autoprewarm.blocks'))).toBe(true);

    // The start waits for the worker and says so (its log line is how the wait knows the worker finished).
    const logged: Array<{ msg: string; finished?: boolean }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) });
    server = new EmbeddedPostgres(dir, logger);
    const again = await server.start();
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'embedded PostgreSQL prewarmed its buffers', finished: true }));
    // start() waits for the worker to read the saved pages back: the table is in shared buffers at once.
    const cached = await withClient(again, async (client) => {
      // pg_buffercache lists the buffers without reading the table (a read would load its pages itself).
      const { rows } = await client.query<{ cached: number; pages: number }>(
        `SELECT (SELECT count(*)::int FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('warm') AND relforknumber = 0
           AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())) AS cached,
         (pg_relation_size('warm') / current_setting('block_size')::int)::int AS pages`,
      );
      return rows[0];
    });
    expect(cached?.pages).toBeGreaterThan(0);
    expect(cached?.cached).toBe(cached?.pages);
  }, 120_000);
});
