import type pg from 'pg';
import { distinctJsonValues, jsonValueHash, jsonValueIdByHash, jsonValueOf } from '../history/json-values.js';
import { STAGING_SCHEMA } from './staging-tables.js';
import { quoteIdent, type ColumnInfo } from './table-columns.js';

/**
 * Backups carry a play's stream details and transcode info as JSON in columns stream_details and
 * transcoding_info, as before migration 0022 stored them once per distinct value: files written before and
 * after it have the same shape, and each file stands alone (no dictionary ids that only mean something in the
 * database that wrote them).
 */
const HISTORY = 'playback_history';
const JSON_COLUMNS: ReadonlyArray<{ live: string; file: string }> = [
  { live: 'stream_details_id', file: 'stream_details' },
  { live: 'transcoding_info_id', file: 'transcoding_info' },
];

/** The live dictionary, named with its schema: a restore's search path may hold the staging schema. */
const DICTIONARY = 'public.play_json_values';

/** Where a restore loads the history's rows as the file has them, before their values get their ids. */
export const STAGED_HISTORY_FILE = `${STAGING_SCHEMA}.playback_history_file`;

/** A table's columns as a backup file names and types them. */
export function fileColumns(table: string, live: readonly ColumnInfo[]): ColumnInfo[] {
  if (table !== HISTORY) return [...live];
  return live.map((column) => {
    const json = JSON_COLUMNS.find((c) => c.live === column.name);
    return json ? { name: json.file, type: 'jsonb' } : column;
  });
}

/** The expression a backup reads for one of the file's columns. */
export function fileColumnValue(table: string, column: string): string {
  const json = table === HISTORY ? JSON_COLUMNS.find((c) => c.file === column) : undefined;
  return json ? jsonValueOf(quoteIdent(json.live)) : quoteIdent(column);
}

/** The staged table a file's table is loaded into. */
export function stagedFileTable(table: string): string {
  return table === HISTORY ? STAGED_HISTORY_FILE : `${STAGING_SCHEMA}.${quoteIdent(table)}`;
}

/** An unlogged table shaped like the file's history (the staged history's columns, JSON in place of ids). */
export async function createHistoryFileTable(client: pg.Client): Promise<void> {
  const staged = `${STAGING_SCHEMA}.${quoteIdent(HISTORY)}`;
  await client.query(`CREATE UNLOGGED TABLE ${STAGED_HISTORY_FILE} (LIKE ${staged} INCLUDING DEFAULTS)`);
  for (const { live, file } of JSON_COLUMNS) {
    await client.query(`ALTER TABLE ${STAGED_HISTORY_FILE} DROP COLUMN ${quoteIdent(live)}, ADD COLUMN ${quoteIdent(file)} jsonb`);
  }
}

/**
 * Stores the file's distinct values in the live dictionary (content-addressed: a value already there keeps its
 * id, and values added by a restore that then fails are harmless), then moves the rows into the staged history
 * with ids in place of values. One pass each, set-based; the file table is dropped after.
 */
export async function moveHistoryFromFile(client: pg.Client, columns: readonly string[]): Promise<void> {
  const values = JSON_COLUMNS.map(({ file }) => `SELECT ${quoteIdent(file)} AS value FROM ${STAGED_HISTORY_FILE}`);
  await client.query(
    `INSERT INTO ${DICTIONARY} (hash, value) ${distinctJsonValues(values.join(' UNION ALL '))}
     ON CONFLICT (hash) DO NOTHING`,
  );
  const target = columns.map((name) => JSON_COLUMNS.find((c) => c.file === name)?.live ?? name);
  const source = columns.map((name) =>
    JSON_COLUMNS.some((c) => c.file === name)
      ? jsonValueIdByHash(jsonValueHash(`f.${quoteIdent(name)}`), DICTIONARY)
      : `f.${quoteIdent(name)}`,
  );
  await client.query(
    `INSERT INTO ${STAGING_SCHEMA}.${quoteIdent(HISTORY)} (${target.map(quoteIdent).join(', ')}) SELECT ${source.join(', ')} FROM ${STAGED_HISTORY_FILE} f`,
  );
  await client.query(`DROP TABLE ${STAGED_HISTORY_FILE}`);
}
