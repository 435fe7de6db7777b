import pg from 'pg';

/** Any fixed number unique to "building deferred indexes"; one builder at a time in the cluster. */
const BUILD_LOCK_KEY = 7_246_118_016;

export interface DeferredIndex {
  name: string;
  table: string;
  /** pg_get_indexdef's CREATE INDEX statement, relations named with their schema. */
  definition: string;
}

/** Indexes of a public table still to be built: part of the table's shape although not (validly) there yet. */
export async function deferredIndexesOf(client: pg.Client, table: string): Promise<DeferredIndex[]> {
  const { rows } = await client.query<DeferredIndex>(
    'SELECT name, table_name AS table, definition FROM public.deferred_indexes WHERE table_name = $1 ORDER BY name',
    [table],
  );
  return rows;
}

/**
 * Restores now build every index before their swap; rows here are what a restore of an earlier build left
 * when it was stopped between its swap and its deferred GIN build. Runtime start builds them.
 *
 * Builds every deferred index with CREATE INDEX CONCURRENTLY (reads and writes carry on; queries that would
 * use the index are only slower meanwhile). An index a killed build left invalid is dropped and built again.
 * Returns how many it built; 0 at once when another process is building them (it picks up new rows too).
 */
export async function buildDeferredIndexes(url: string, onStep?: (message: string) => void): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'reelstat-index-build' });
  client.on('error', () => undefined);
  await client.connect();
  let built = 0;
  try {
    const { rows: lock } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [BUILD_LOCK_KEY]);
    if (!lock[0]!.locked) return 0;
    await client.query(`SET maintenance_work_mem = '512MB'`);
    for (;;) {
      const { rows } = await client.query<{ name: string; definition: string; stamp: string }>(
        'SELECT name, definition, created_at::text AS stamp FROM public.deferred_indexes ORDER BY created_at, name LIMIT 1',
      );
      const next = rows[0];
      if (!next) return built;
      const { rows: existing } = await client.query<{ valid: boolean }>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE c.relname = $1 AND c.relnamespace = 'public'::regnamespace`,
        [next.name],
      );
      if (existing[0]?.valid !== true) {
        if (existing[0]) await client.query(`DROP INDEX CONCURRENTLY public."${next.name.replace(/"/g, '""')}"`);
        onStep?.(`Building index ${next.name}`);
        await client.query(next.definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX CONCURRENTLY '));
        built++;
      }
      // Only this row: a restore that swapped the table again meanwhile wrote a newer one, still to build.
      await client.query('DELETE FROM public.deferred_indexes WHERE name = $1 AND created_at::text = $2', [next.name, next.stamp]);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
