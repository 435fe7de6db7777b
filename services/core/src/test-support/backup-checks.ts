import pg from 'pg';
import type { Database } from '../db/database.js';
import { REBUILD_ROLLUPS_SQL } from '../history/rollup-sql.js';
import { BACKUP_TABLES } from '../backup/backup-tables.js';
import { jsonValueHash } from '../history/json-values.js';

/** The transcode info every third sample play carries. */
const TRANSCODE = `jsonb_build_object('VideoCodec', 'h264', 'Reasons', jsonb_build_array('a', 'b'))`;

/**
 * A sample media database made in SQL: users, libraries, movies and episodes with files, streams and genres,
 * and `plays` plays over a year with their rollups. Deterministic (no random()).
 */
export async function seedSample(database: Database, serverId: string, plays: number): Promise<void> {
  // Its own connection: the pool's 60 s statement timeout is too short for 100k plays on a loaded machine.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const db = { query: (sql: string, bind?: unknown[]) => client.query(sql, bind) };
  try {
    await db.query(
      `INSERT INTO media_users (server_id, id, name, is_administrator)
       SELECT $1, 'user-' || n, 'User ' || n || E' \\\\ "q"\\ttab', n = 1 FROM generate_series(1, 50) AS n RETURNING 1`,
      [serverId],
    );
    await db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'lib-m', 'Movies', 'movies'), ($1, 'lib-s', 'Shows', 'tvshows') RETURNING 1`,
      [serverId],
    );
    await db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, run_time_ticks, artists, image_tags, date_created, community_rating)
       SELECT $1, 'movie-' || n, 'lib-m', 'Movie', 'Movie ' || n || E'\\nline two', 72000000000, ARRAY['A "b"', 'c,d', NULL],
              jsonb_build_object('Primary', 'tag' || n, 'nested', jsonb_build_array(1, 'x\\y')), timestamptz '2024-01-01' + n * interval '1 hour', 7.5
       FROM generate_series(1, 500) AS n RETURNING 1`,
      [serverId],
    );
    await db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, series_id, season_id, parent_id, index_number, parent_index_number)
       SELECT $1, 'ep-' || n, 'lib-s', 'Episode', 'Episode ' || n, 'series-' || (n % 10), 'season-' || (n % 10), 'season-' || (n % 10), n, 1
       FROM generate_series(1, 500) AS n RETURNING 1`,
      [serverId],
    );
    await db.query(
      `INSERT INTO media_sources (server_id, item_id, id, path, size) SELECT $1, id, id, '/media/' || id || '.mkv', 1000000 FROM items WHERE server_id = $1 RETURNING 1`,
      [serverId],
    );
    await db.query(
      `INSERT INTO media_streams (server_id, item_id, media_source_id, stream_index, type, codec)
       SELECT $1, item_id, id, s, CASE s WHEN 0 THEN 'Video' ELSE 'Audio' END, 'h264' FROM media_sources, generate_series(0, 1) AS s WHERE server_id = $1 RETURNING 1`,
      [serverId],
    );
    await db.query(
      `INSERT INTO item_genres (server_id, item_id, genre) SELECT $1, id, 'Drama' FROM items WHERE server_id = $1 RETURNING 1`,
      [serverId],
    );
    // Transcode info is stored once per distinct value (migration 0022): the value first, then rows that refer to it.
    await db.query(
      `INSERT INTO play_json_values (hash, value) VALUES (${jsonValueHash(TRANSCODE)}, ${TRANSCODE}) ON CONFLICT (hash) DO NOTHING`,
    );
    await db.query(
      `INSERT INTO playback_history (server_id, play_key, user_id, user_name, item_id, item_name, item_type, series_id, season_id, library_id, client,
         device_name, play_method, transcoding_info_id, started_at, ended_at, played_seconds)
       SELECT $1, 'play-' || n, 'user-' || (n % 50 + 1), 'User ' || (n % 50 + 1),
         CASE WHEN n % 2 = 0 THEN 'movie-' || (n % 500 + 1) ELSE 'ep-' || (n % 500 + 1) END, 'Item ' || n,
         CASE WHEN n % 2 = 0 THEN 'Movie' ELSE 'Episode' END,
         CASE WHEN n % 2 = 0 THEN NULL ELSE 'series-' || ((n % 500 + 1) % 10) END,
         CASE WHEN n % 2 = 0 THEN NULL ELSE 'season-' || ((n % 500 + 1) % 10) END,
         CASE WHEN n % 2 = 0 THEN 'lib-m' ELSE 'lib-s' END, 'Client ' || (n % 7), 'Device', (ARRAY['DirectPlay', 'DirectStream', 'Transcode'])[n % 3 + 1],
         CASE WHEN n % 3 = 2 THEN (SELECT id FROM play_json_values WHERE hash = ${jsonValueHash(TRANSCODE)}) END,
         timestamptz '2025-01-01' + n * interval '5 minutes', timestamptz '2025-01-01' + n * interval '5 minutes' + interval '20 minutes', 1200 + n % 600
       FROM generate_series(1, $2::int) AS n RETURNING 1`,
      [serverId, plays],
    );
    await db.query(`INSERT INTO app_settings (key, value) VALUES ('TASK_LOG_RETENTION_DAYS', '12') RETURNING 1`);
    await db.query(REBUILD_ROLLUPS_SQL);
  } finally {
    await client.end();
  }
}

/** Row count and an md5 of every row, per backed-up table, in key order. */
export async function tableChecksums(db: Database): Promise<Record<string, { rows: number; md5: string }>> {
  const out: Record<string, { rows: number; md5: string }> = {};
  for (const table of BACKUP_TABLES) {
    const [row] = await db.query<{ rows: number; md5: string }>(
      `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY ${table.primaryKey.map((k) => `t.${k}`).join(', ')}), '')) AS md5
       FROM ${table.name} t`,
    );
    out[table.name] = row!;
  }
  return out;
}

/**
 * Everything but rows that the public schema's tables have: indexes, constraints (and whether checked),
 * triggers and sequence ownership, by name and definition. A restore swaps tables in by renames, so after
 * it this must be what the migrations made.
 */
export async function schemaShape(database: Database): Promise<Record<string, string[]>> {
  const rows = await database.query<{ kind: string; item: string }>(
    `SELECT 'index' AS kind, indexname || ': ' || indexdef AS item FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL SELECT 'constraint', conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) || CASE WHEN convalidated THEN '' ELSE ' (not checked)' END
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL SELECT 'trigger', tgrelid::regclass::text || '.' || tgname || ': ' || pg_get_triggerdef(t.oid) FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'public'::regnamespace AND NOT tgisinternal
     UNION ALL SELECT 'sequence', d.objid::regclass::text || ' owned by ' || d.refobjid::regclass::text FROM pg_depend d
       JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S' WHERE s.relnamespace = 'public'::regnamespace AND d.deptype = 'a'
     UNION ALL SELECT 'schema', nspname FROM pg_namespace WHERE nspname LIKE 'backup_%'
     ORDER BY 1, 2`,
  );
  const shape: Record<string, string[]> = {};
  for (const row of rows) (shape[row.kind] ??= []).push(row.item);
  return shape;
}
