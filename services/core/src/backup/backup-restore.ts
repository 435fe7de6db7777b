import { pipeline } from 'node:stream/promises';
import { Readable as ReadableStream } from 'node:stream';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { migrations } from '../db/migrations/index.js';
import { AppError } from '../errors/app-error.js';
import { REBUILD_ROLLUPS_SQL } from '../history/rollup-sql.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, backupHeader, type BackupManifest } from './backup-format.js';
import { BACKUP_TABLES, backupTable, EXTRA_UNIQUE_KEYS, type BackupTable } from './backup-tables.js';
import { copyLine } from './copy-text.js';
import { type LineReader } from './line-reader.js';
import { quoteIdent, readColumns, type ColumnInfo } from './table-columns.js';

export const STAGING_SCHEMA = 'backup_staging';
const ROWS_PER_COPY_CHUNK = 500;

export interface RestoreSummary {
  kind: 'reelstat';
  tables: Record<string, number>;
  schemaMigration: string;
}

export interface RestoreHooks {
  signal?: AbortSignal;
  /** 0–100 and what is happening. */
  onProgress?: (percent: number, message: string) => void;
}

const bad = (message: string) => AppError.badRequest(message);

/**
 * Restores a Reelstat backup in two phases, so that a bad file or a failure (or a kill) at any moment leaves
 * the previous data exactly as it was:
 * 1. stream the file into unlogged staging tables (schema backup_staging), checking the header, the tables,
 *    the columns, every value's type (COPY), duplicate keys and references — nothing live is touched;
 * 2. one transaction swaps the staged rows in, rebuilds the rollups and totals, and commits.
 * `client` holds the restore lock (openRestoreSession).
 */
export async function restoreReelstatBackup(client: pg.Client, lines: LineReader, hooks: RestoreHooks = {}): Promise<RestoreSummary> {
  const manifest = await readHeader(lines);
  const knownColumns = await readColumns(
    client,
    BACKUP_TABLES.map((t) => t.name),
  );
  const total = Math.max(
    1,
    Object.values(manifest.rowCounts).reduce((a, b) => a + b, 0),
  );
  await client.query(`DROP SCHEMA IF EXISTS ${STAGING_SCHEMA} CASCADE`);
  await client.query(`CREATE SCHEMA ${STAGING_SCHEMA}`);
  // PostgreSQL's memory for the index builds of the swap (server side; Reelstat's own memory is unaffected).
  await client.query(`SET maintenance_work_mem = '256MB'`);
  try {
    const loaded = new Map<string, { columns: string[]; rows: number }>();
    let done = 0;
    for (;;) {
      const line = await lines.next();
      if (line === undefined) throw bad('The backup file is truncated: it ends before its last table');
      if (line === ']}') break;
      const section = parseTableHeader(line, lines.lineNumber);
      const table = backupTable(section.table);
      if (!table || !manifest.tables.includes(section.table)) throw bad(`Unknown table "${section.table}" in the backup file`);
      if (loaded.has(table.name)) throw bad(`Table ${table.name} appears twice in the backup file`);
      const columns = checkColumns(table, section.columns, knownColumns.get(table.name)!);
      hooks.onProgress?.((done / total) * 90, `Reading ${table.name}`);
      const rows = await stageTable(client, table, columns, lines, hooks, (n) => {
        done += n;
        hooks.onProgress?.((done / total) * 90, `Reading ${table.name}`);
      });
      if (rows !== manifest.rowCounts[table.name]) {
        throw bad(`Table ${table.name} has ${rows} rows but the manifest says ${manifest.rowCounts[table.name] ?? 0}: the file is damaged`);
      }
      loaded.set(table.name, { columns: columns.map((c) => c.name), rows });
    }
    if ((await lines.next())?.trim()) throw bad('Unexpected content after the end of the backup');
    for (const name of manifest.tables) if (!loaded.has(name)) throw bad(`The backup file is truncated: table ${name} is missing`);
    if (!loaded.has('media_servers')) throw bad('The backup has no media_servers table');
    hooks.signal?.throwIfAborted();
    hooks.onProgress?.(90, 'Checking keys and references');
    await checkKeysAndReferences(client, loaded);
    hooks.onProgress?.(92, 'Swapping the restored data in');
    await swap(client, loaded);
    hooks.onProgress?.(100, 'Restore complete');
    return {
      kind: 'reelstat',
      tables: Object.fromEntries([...loaded].map(([name, { rows }]) => [name, rows])),
      schemaMigration: manifest.schemaMigration,
    };
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${STAGING_SCHEMA} CASCADE`).catch(() => undefined);
  }
}

export async function readHeader(lines: LineReader): Promise<BackupManifest> {
  const first = await lines.next();
  let header: unknown;
  try {
    header = JSON.parse(`${first ?? ''}]}`);
  } catch {
    throw bad('Not a Reelstat backup file: it does not start with a backup header');
  }
  const format = header as { format?: unknown; formatVersion?: unknown };
  if (format.format !== BACKUP_FORMAT) throw bad('Not a Reelstat backup file: the format is not reelstat-backup');
  if (typeof format.formatVersion === 'number' && format.formatVersion > BACKUP_FORMAT_VERSION) {
    throw bad(
      `The backup uses format version ${format.formatVersion}, newer than this Reelstat reads (${BACKUP_FORMAT_VERSION}); upgrade Reelstat first`,
    );
  }
  const parsed = backupHeader.safeParse(header);
  if (!parsed.success || parsed.data.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw bad(
      `Unsupported backup header: ${parsed.success ? `format version ${parsed.data.formatVersion}` : parsed.error.issues[0]?.message}`,
    );
  }
  const { manifest } = parsed.data;
  if (!migrations.some((m) => m.name === manifest.schemaMigration)) {
    throw bad(`The backup comes from a newer database schema (${manifest.schemaMigration}); upgrade Reelstat before restoring it`);
  }
  for (const name of manifest.tables) if (!backupTable(name)) throw bad(`Unknown table "${name}" in the backup manifest`);
  return manifest;
}

export function parseTableHeader(line: string, lineNumber: number): { table: string; columns: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(`${line}]}`);
  } catch {
    throw bad(`The backup file is damaged or truncated at line ${lineNumber}: a table was expected`);
  }
  const section = value as { table?: unknown; columns?: unknown };
  if (typeof section.table !== 'string' || !Array.isArray(section.columns) || !section.columns.every((c) => typeof c === 'string')) {
    throw bad(`The backup file is damaged at line ${lineNumber}: a table needs a name and its columns`);
  }
  return { table: section.table, columns: section.columns as string[] };
}

/**
 * Maps the file's columns onto today's table. A backup from an older schema lacks columns added since: they
 * take their defaults. A column this schema does not know is refused (it would be data silently dropped).
 */
function checkColumns(table: BackupTable, names: string[], live: ColumnInfo[]): ColumnInfo[] {
  if (new Set(names).size !== names.length) throw bad(`Table ${table.name} lists a column twice`);
  const columns = names.map((name) => {
    const column = live.find((c) => c.name === name);
    if (!column) throw bad(`Unknown column "${name}" in table ${table.name}`);
    return column;
  });
  for (const key of table.primaryKey) if (!names.includes(key)) throw bad(`Table ${table.name} lacks its key column ${key}`);
  return columns;
}

async function stageTable(
  client: pg.Client,
  table: BackupTable,
  columns: ColumnInfo[],
  lines: LineReader,
  hooks: RestoreHooks,
  onRows: (n: number) => void,
): Promise<number> {
  const staging = `${STAGING_SCHEMA}.${quoteIdent(table.name)}`;
  await client.query(`CREATE UNLOGGED TABLE ${staging} (LIKE public.${quoteIdent(table.name)} INCLUDING DEFAULTS)`);
  let rows = 0;
  async function* copyText(): AsyncGenerator<string> {
    let batch: string[] = [];
    for (;;) {
      const line = await lines.next();
      if (line === undefined) throw bad(`The backup file is truncated in table ${table.name}`);
      if (line === ']},' || line === ']}') break;
      hooks.signal?.throwIfAborted();
      const lineNumber = lines.lineNumber;
      const where = () => `Table ${table.name}, line ${lineNumber}`;
      let row: unknown;
      try {
        row = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line);
      } catch {
        throw bad(`${where()}: not valid JSON (the file is damaged or truncated)`);
      }
      batch.push(copyLine(row, columns, where));
      rows++;
      if (batch.length === ROWS_PER_COPY_CHUNK) {
        yield `${batch.join('\n')}\n`;
        onRows(batch.length);
        batch = [];
      }
    }
    if (batch.length) {
      yield `${batch.join('\n')}\n`;
      onRows(batch.length);
    }
  }
  const copy = client.query(copyStreams.from(`COPY ${staging} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) FROM STDIN`));
  try {
    await pipeline(ReadableStream.from(copyText()), copy);
  } catch (error) {
    throw asBadInput(error, table.name);
  }
  return rows;
}

/** PostgreSQL refused a value (type, NOT NULL, range) or a key: the file is at fault, so a 400 that says where. */
function asBadInput(error: unknown, table: string): unknown {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; message?: string; where?: string; detail?: string };
  if (e.code && /^(22|23)/.test(e.code)) {
    const where = e.where ? ` (${e.where.split('\n')[0]})` : '';
    return bad(`Table ${table}: ${e.message}${e.detail ? ` — ${e.detail}` : ''}${where}`);
  }
  return error;
}

async function checkKeysAndReferences(client: pg.Client, loaded: Map<string, { columns: string[] }>): Promise<void> {
  for (const table of BACKUP_TABLES) {
    if (!loaded.has(table.name)) continue;
    const staging = `${STAGING_SCHEMA}.${quoteIdent(table.name)}`;
    for (const key of [table.primaryKey, ...(EXTRA_UNIQUE_KEYS[table.name] ?? [])]) {
      try {
        await client.query(`CREATE UNIQUE INDEX ON ${staging} (${key.map(quoteIdent).join(', ')})`);
      } catch (error) {
        const e = error as { code?: string; detail?: string };
        if (e.code === '23505') throw bad(`Duplicate key in table ${table.name}: ${e.detail ?? key.join(', ')}`);
        throw error;
      }
    }
    for (const parent of table.parents) {
      const source = loaded.has(parent.table) ? `${STAGING_SCHEMA}.${quoteIdent(parent.table)}` : `public.${quoteIdent(parent.table)}`;
      const match = parent.columns.map((c, i) => `p.${quoteIdent(parent.parentColumns[i]!)} = c.${quoteIdent(c)}`).join(' AND ');
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${staging} c WHERE NOT EXISTS (SELECT 1 FROM ${source} p WHERE ${match})`,
      );
      const orphans = Number(rows[0]!.n);
      if (orphans > 0) throw bad(`${orphans} rows of table ${table.name} refer to ${parent.table} rows the backup does not have`);
    }
  }
}

/**
 * The one transaction that changes live data. Writers of history (the activity monitor) take a per-server
 * advisory lock before writing; holding all of them pauses the monitor's writes until the commit, after
 * which it carries on against the restored tables.
 */
async function swap(client: pg.Client, loaded: Map<string, { columns: string[] }>): Promise<void> {
  const insert = (table: string) => {
    const cols = loaded.get(table)!.columns.map(quoteIdent).join(', ');
    return `INSERT INTO public.${quoteIdent(table)} (${cols}) SELECT ${cols} FROM ${STAGING_SCHEMA}.${quoteIdent(table)}`;
  };
  await client.query('BEGIN');
  try {
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtext('reelstat-activity:' || id::text)) FROM (
         SELECT id FROM public.media_servers UNION SELECT id FROM ${STAGING_SCHEMA}.media_servers ORDER BY id) AS servers`,
    );
    // media_servers is merged, not emptied: deleting a kept server would cascade into tables left out of the backup.
    const serverColumns = loaded.get('media_servers')!.columns;
    await client.query('UPDATE public.media_servers SET is_default = false, managed_ref = NULL');
    await client.query(
      `${insert('media_servers')} ON CONFLICT (id) DO UPDATE SET ${serverColumns
        .filter((c) => c !== 'id')
        .map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`)
        .join(', ')}`,
    );
    await client.query(`DELETE FROM public.media_servers WHERE id NOT IN (SELECT id FROM ${STAGING_SCHEMA}.media_servers)`);
    const replaced = BACKUP_TABLES.filter((t) => t.name !== 'media_servers' && loaded.has(t.name)).map((t) => t.name);
    if (replaced.length > 0) await client.query(`TRUNCATE ${replaced.map((t) => `public.${quoteIdent(t)}`).join(', ')}`);
    // Building an index once over all rows is far faster than updating it row by row: the secondary indexes of
    // the emptied tables are dropped and recreated inside this same transaction (atomic like the rest).
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = to_regclass('public.' || quote_ident(i.indexname)))`,
      [replaced],
    );
    for (const index of indexes) await client.query(`DROP INDEX public.${quoteIdent(index.name)}`);
    for (const table of replaced) await client.query(insert(table));
    for (const index of indexes) await client.query(index.definition);
    // Every rollup level, emptied and rebuilt from the restored history by the one shared statement.
    await client.query(REBUILD_ROLLUPS_SQL);
    await client.query(
      `SELECT setval(pg_get_serial_sequence('public.playback_history', 'id'), GREATEST((SELECT max(id) FROM public.playback_history), 1))`,
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
