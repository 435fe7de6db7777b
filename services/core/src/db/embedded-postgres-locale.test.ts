import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from './embedded-postgres.js';

/**
 * A new embedded cluster folds every letter in lower() and ILIKE (the history search lower-cases the text and
 * the word in PostgreSQL), and still orders text by code point as the C locale did.
 */
describe('embedded PostgreSQL locale', () => {
  let dir: string;
  let server: EmbeddedPostgres;
  let client: pg.Client;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-embedded-locale-'));
    server = new EmbeddedPostgres(dir, pino({ level: 'silent' }));
    client = new pg.Client({ connectionString: await server.start() });
    await client.connect();
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('lower-cases accented capitals and compares them case aside', async () => {
    const { rows } = await client.query<{ lowered: string; found: boolean }>(
      `SELECT lower('AMÉLIE À ÑANDÚ Zoë') AS lowered, 'Amélie' ILIKE '%AMÉLIE%' AS found`,
    );
    expect(rows[0]).toEqual({ lowered: 'amélie à ñandú zoë', found: true });
  });

  it('orders text by code point', async () => {
    const { rows } = await client.query<{ word: string }>(`SELECT word FROM unnest(ARRAY['é', 'Z', 'a', 'É', 'z']) AS word ORDER BY word`);
    expect(rows.map((row) => row.word)).toEqual(['Z', 'a', 'z', 'É', 'é']);
  });
});
