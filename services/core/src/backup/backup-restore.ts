import type pg from 'pg';
import { migrations } from '../db/migrations/index.js';
import { AppError } from '../errors/app-error.js';
import {
  cardRollupDelta,
  cardViewerCountsFrom,
  cardViewersDelta,
  dailyRollupsFrom,
  libraryHourlyRollupsFrom,
  libraryMethodMonthRollupsFrom,
  libraryMonthQuarterRollupsFrom,
  libraryRollupsFrom,
  ROLLUP_TABLES,
  rollupDelta,
  totalsDelta,
} from '../history/rollup-sql.js';
import { libraryDaySlotsFrom } from '../history/day-slots-sql.js';
import { reviewRollupsBackfill } from '../history/review-rollup-sql.js';
import { searchTermsWithSure, searchValuesFrom } from '../history/search-terms.js';
import { fillSearchWords } from '../history/search-words.js';
import { RECOUNT_USER_LAST_PLAYS_SQL } from '../history/user-last-plays.js';
import { RECOUNT_LIBRARY_ITEMS_SQL } from '../library/library-item-counts.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, backupHeader, type BackupManifest } from './backup-format.js';
import { BACKUP_TABLES, backupTable, type BackupTable } from './backup-tables.js';
import { copyLine } from './copy-text.js';
import { createHistoryFileTable, fileColumns, moveHistoryFromFile, stagedFileTable } from './history-file-columns.js';
import { type LineReader } from './line-reader.js';
import { ParallelCopy } from './parallel-copy.js';
import { openRestoreWorker } from './restore-lock.js';
import { STAGING_SCHEMA, StagingTables } from './staging-tables.js';
import { quoteIdent, readColumns, type ColumnInfo } from './table-columns.js';

const ROWS_PER_COPY_CHUNK = 200;
/** Tables with at least this many rows load over PARALLEL_BUILDS connections. */
const PARALLEL_COPY_ROWS = 50_000;

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

/** Index builds at once (one PostgreSQL backend each): the bulk of a large restore's time. */
const PARALLEL_BUILDS = 2;
/**
 * PostgreSQL's memory for the restore's sessions: sorts of index builds, and the hash aggregates of the rollups
 * and reference checks (in memory rather than spilled to disk). Server side; Reelstat's own memory is unaffected.
 */
const sessionSettings = `SET maintenance_work_mem = '1GB'; SET work_mem = '256MB'`;

/** Runs jobs on `first` and up to PARALLEL_BUILDS - 1 more connections, each taking the next job when free. */
async function inParallel(
  jobs: Array<(client: pg.Client) => Promise<void>>,
  first: pg.Client,
  open: () => Promise<pg.Client>,
): Promise<void> {
  let next = 0;
  const worker = async (client: pg.Client) => {
    while (next < jobs.length) await jobs[next++]!(client);
  };
  const more: pg.Client[] = [];
  try {
    for (let i = 1; i < Math.min(PARALLEL_BUILDS, jobs.length); i++) more.push(await open());
    await Promise.all([worker(first), ...more.map(worker)]);
  } finally {
    await Promise.all(more.map((client) => client.end().catch(() => undefined)));
  }
}

/**
 * Restores a Reelstat backup so that a bad file or a failure (or a kill) at any moment leaves the previous
 * data exactly as it was:
 * 1. stream the file into new tables beside the live ones (schema backup_staging, no indexes yet), checking
 *    the header, the tables, the columns and every value's type (COPY) — nothing live is touched;
 * 2. check keys and references, build the rollups and totals from the staged history, then every index,
 *    key, foreign key and trigger the live tables have — still nothing live is touched;
 * 3. one short transaction swaps the new tables in by renames and commits;
 * 4. after the commit, the foreign keys towards kept tables are marked checked (they were, before the swap).
 * `client` holds the restore lock (openRestoreSession); `url` opens more connections (parallel builds).
 */
export async function restoreReelstatBackup(
  client: pg.Client,
  url: string,
  lines: LineReader,
  hooks: RestoreHooks = {},
): Promise<RestoreSummary> {
  const manifest = await readHeader(lines);
  const knownColumns = await readColumns(
    client,
    BACKUP_TABLES.map((t) => t.name),
  );
  const total = Math.max(
    1,
    Object.values(manifest.rowCounts).reduce((a, b) => a + b, 0),
  );
  const withHistory = manifest.tables.includes('playback_history');
  // media_servers is merged into the live table, not replaced: deleting a kept server would cascade into
  // tables left out of the backup.
  const replaced = [
    ...BACKUP_TABLES.filter((t) => t.name !== 'media_servers' && manifest.tables.includes(t.name)).map((t) => t.name),
    ...(withHistory ? ROLLUP_TABLES : []),
  ];
  const staging = new StagingTables(client, replaced);
  await client.query(sessionSettings);
  let worker: pg.Client | undefined;
  const copyWorker = async () => {
    if (!worker) {
      worker = await openRestoreWorker(url);
      await worker.query(sessionSettings);
    }
    return worker;
  };
  try {
    await staging.create();
    await client.query(`CREATE UNLOGGED TABLE ${STAGING_SCHEMA}.media_servers (LIKE public.media_servers INCLUDING DEFAULTS)`);
    if (withHistory) await createHistoryFileTable(client);
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
      const columns = checkColumns(table, section.columns, fileColumns(table.name, knownColumns.get(table.name)!));
      hooks.onProgress?.((done / total) * 70, `Reading ${table.name}`);
      // A large table loads over two connections (PostgreSQL parses and checks the values on two cores).
      const copyOver = (manifest.rowCounts[table.name] ?? 0) >= PARALLEL_COPY_ROWS ? [client, await copyWorker()] : [client];
      const rows = await stageTable(client, table, columns, lines, hooks, copyOver, (n) => {
        done += n;
        hooks.onProgress?.((done / total) * 70, `Reading ${table.name}`);
      });
      if (rows !== manifest.rowCounts[table.name]) {
        throw bad(`Table ${table.name} has ${rows} rows but the manifest says ${manifest.rowCounts[table.name] ?? 0}: the file is damaged`);
      }
      loaded.set(table.name, { columns: columns.map((c) => c.name), rows });
    }
    if ((await lines.next())?.trim()) throw bad('Unexpected content after the end of the backup');
    for (const name of manifest.tables) if (!loaded.has(name)) throw bad(`The backup file is truncated: table ${name} is missing`);
    if (!loaded.has('media_servers')) throw bad('The backup has no media_servers table');
    if (withHistory) {
      hooks.onProgress?.(70, 'Storing stream details once per distinct value');
      await moveHistoryFromFile(client, loaded.get('playback_history')!.columns);
    }
    hooks.signal?.throwIfAborted();
    hooks.onProgress?.(70, 'Checking keys and references');
    await checkKeysAndReferences(client, staging, loaded);
    await staging.addForeignKeys();
    // Rollups (from the staged history) and index builds share PARALLEL_BUILDS connections, the longest build
    // (the trigram search index) first: the others fill the second connection meanwhile.
    const builds: Array<{ step: string; run: (builder: pg.Client) => Promise<unknown> }> = [];
    const indexes = replaced
      .filter((t) => !(ROLLUP_TABLES as readonly string[]).includes(t))
      .reverse()
      .flatMap((table) => staging.indexBuilds(table));
    for (const index of indexes.filter((i) => i.longest))
      builds.push({ step: `Building index ${index.name}`, run: (builder) => builder.query(index.sql) });
    if (withHistory) {
      builds.push({
        step: 'Rebuilding rollups and totals',
        run: async (builder) => {
          await buildRollups(builder, staging);
          for (const table of ROLLUP_TABLES) for (const index of staging.indexBuilds(table)) await builder.query(index.sql);
        },
      });
    }
    for (const index of indexes.filter((i) => !i.longest))
      builds.push({ step: `Building index ${index.name}`, run: (builder) => builder.query(index.sql) });
    let started = 0;
    await inParallel(
      builds.map((build) => async (builder: pg.Client) => {
        hooks.signal?.throwIfAborted();
        hooks.onProgress?.(72 + (started++ / builds.length) * 22, build.step);
        await build.run(builder);
      }),
      client,
      async () => {
        const builder = await openRestoreWorker(url);
        await builder.query(sessionSettings);
        return builder;
      },
    );
    await staging.addTriggersAndAnalyze();
    hooks.signal?.throwIfAborted();
    hooks.onProgress?.(95, 'Swapping the restored data in');
    await swap(client, staging, loaded);
    hooks.onProgress?.(97, 'Restored; checking references');
    await staging.validate();
    hooks.onProgress?.(100, 'Restore complete');
    return {
      kind: 'reelstat',
      tables: Object.fromEntries([...loaded].map(([name, { rows }]) => [name, rows])),
      schemaMigration: manifest.schemaMigration,
    };
  } finally {
    await worker?.end().catch(() => undefined);
    await staging.drop().catch(() => undefined);
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
  copyOver: readonly pg.Client[],
  onRows: (n: number) => void,
): Promise<number> {
  const staging = stagedFileTable(table.name);
  const copy = ParallelCopy.open(copyOver, `COPY ${staging} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) FROM STDIN`);
  let rows = 0;
  let batch: string[] = [];
  try {
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
      // Small chunks, written as they fill: rows die young instead of being promoted (the peak RSS).
      if (batch.length === ROWS_PER_COPY_CHUNK) {
        await copy.write(`${batch.join('\n')}\n`);
        onRows(batch.length);
        batch = [];
      }
    }
    if (batch.length) {
      await copy.write(`${batch.join('\n')}\n`);
      onRows(batch.length);
    }
    await copy.end();
  } catch (error) {
    copy.abort(error instanceof Error ? error : new Error(String(error)));
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

/** Duplicate keys (the key constraints are built here, once) and rows whose parent the backup lacks. */
async function checkKeysAndReferences(
  client: pg.Client,
  staging: StagingTables,
  loaded: Map<string, { columns: string[] }>,
): Promise<void> {
  for (const table of BACKUP_TABLES) {
    if (!loaded.has(table.name)) continue;
    const staged = `${STAGING_SCHEMA}.${quoteIdent(table.name)}`;
    try {
      if (staging.replaced.includes(table.name)) await staging.addKeys(table.name);
      else await client.query(`CREATE UNIQUE INDEX ON ${staged} (${table.primaryKey.map(quoteIdent).join(', ')})`);
    } catch (error) {
      const e = error as { code?: string; detail?: string };
      if (e.code === '23505') throw bad(`Duplicate key in table ${table.name}: ${e.detail ?? table.primaryKey.join(', ')}`);
      throw error;
    }
    for (const parent of table.parents) {
      const source = loaded.has(parent.table) ? `${STAGING_SCHEMA}.${quoteIdent(parent.table)}` : `public.${quoteIdent(parent.table)}`;
      const match = parent.columns.map((c, i) => `p.${quoteIdent(parent.parentColumns[i]!)} = c.${quoteIdent(c)}`).join(' AND ');
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${staged} c WHERE NOT EXISTS (SELECT 1 FROM ${source} p WHERE ${match})`,
      );
      const orphans = Number(rows[0]!.n);
      if (orphans > 0) throw bad(`${orphans} rows of table ${table.name} refer to ${parent.table} rows the backup does not have`);
    }
  }
}

/** Rollups, their daily level and the totals of the staged history: one set-based INSERT each, then their keys. */
async function buildRollups(client: pg.Client, staging: StagingTables): Promise<void> {
  const into = (table: string) => `${STAGING_SCHEMA}.${quoteIdent(table)}`;
  await client.query(
    `INSERT INTO ${into('play_rollups')} (server_id, bucket, library_id, play_method, plays, played_seconds) ${rollupDelta(into('playback_history'))}`,
  );
  await client.query(
    `INSERT INTO ${into('play_rollups_daily')} (server_id, bucket, library_id, play_method, plays, played_seconds) ${dailyRollupsFrom(into('play_rollups'))}`,
  );
  // The library method months (0027), from the staged daily level (no triggers yet either).
  await client.query(
    `INSERT INTO ${into('play_rollups_by_library_method_month')} (server_id, bucket, library_id, play_method, plays, played_seconds)
     ${libraryMethodMonthRollupsFrom(into('play_rollups_daily'))}`,
  );
  // The chart levels (0013): staged play_rollups has no triggers yet (they are added last), so they are filled here.
  await client.query(
    `INSERT INTO ${into('play_rollups_by_library')} (server_id, bucket, library_id, plays, played_seconds) ${libraryRollupsFrom(into('play_rollups'))}`,
  );
  await client.query(
    `INSERT INTO ${into('play_rollups_by_library_hourly')} (server_id, bucket, library_id, plays, played_seconds) ${libraryHourlyRollupsFrom(into('play_rollups_by_library'))}`,
  );
  // The hour chart's month level (0020), from the staged library quarter hours.
  await client.query(
    `INSERT INTO ${into('play_rollups_by_library_month_quarter')} (server_id, bucket, quarter, library_id, plays, played_seconds)
     ${libraryMonthQuarterRollupsFrom(into('play_rollups_by_library'))}`,
  );
  // The day charts' slots (0037), from the same rows.
  await client.query(
    `INSERT INTO ${into('play_rollups_by_library_day_slots')} (server_id, bucket, library_id, plays, played_seconds)
     SELECT * FROM ${libraryDaySlotsFrom(into('play_rollups_by_library'))} AS s ORDER BY server_id, bucket, library_id`,
  );
  await client.query(
    `INSERT INTO ${into('play_totals')} (server_id, scope, key, plays, played_seconds) ${totalsDelta(into('playback_history'))}`,
  );
  // The cards' rollups and viewers (0018): the staged history gets its triggers last too.
  await client.query(
    `INSERT INTO ${into('play_card_rollups')} (server_id, kind, span, key, bucket, plays, played_seconds)
     ${cardRollupDelta(`(SELECT *, 1 AS weight FROM ${into('playback_history')})`)}`,
  );
  await client.query(
    `INSERT INTO ${into('play_card_viewers')} (server_id, kind, key, user_id, plays, last_started_at)
     ${cardViewersDelta(`(SELECT *, 1 AS weight FROM ${into('playback_history')})`)}`,
  );
  await client.query(
    `INSERT INTO ${into('play_card_viewer_counts')} (server_id, kind, key, viewers) ${cardViewerCountsFrom(into('play_card_viewers'))}`,
  );
  // The year in review's genres per month and binge runs (0028), from the staged history and the genres restored
  // with it (or the live ones when the backup leaves them out).
  await client.query(
    reviewRollupsBackfill(
      into('playback_history'),
      staging.replaced.includes('item_genres') ? into('item_genres') : 'public.item_genres',
      into,
    ),
  );
  // The search's dictionary (0025), its terms' sure flags (0036) judged against the staged play_totals.
  await client.query(
    `INSERT INTO ${into('history_search_terms')} (server_id, kind, key, value, plays, sure)
     ${searchTermsWithSure(into('playback_history'), into('play_totals'))}`,
  );
  await client.query(
    `INSERT INTO ${into('history_search_values')} (server_id, kind, value, plays) ${searchValuesFrom(into('history_search_terms'))}`,
  );
  // Its words (0041), from the staged terms.
  await client.query(fillSearchWords(into));
  for (const table of ROLLUP_TABLES) await staging.addKeys(table, client);
}

/**
 * The one transaction that changes live data, made of catalog changes only. Writers of history (the activity
 * monitor) take a per-server advisory lock before writing; holding all of them pauses the monitor's writes
 * until the commit, after which it carries on against the restored tables.
 */
async function swap(client: pg.Client, staging: StagingTables, loaded: Map<string, { columns: string[] }>): Promise<void> {
  const serverColumns = loaded.get('media_servers')!.columns.map(quoteIdent);
  await client.query('BEGIN');
  try {
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtext('reelstat-activity:' || id::text)) FROM (
         SELECT id FROM public.media_servers UNION SELECT id FROM ${STAGING_SCHEMA}.media_servers ORDER BY id) AS servers`,
    );
    await client.query('UPDATE public.media_servers SET is_default = false, managed_ref = NULL');
    await client.query(
      `INSERT INTO public.media_servers (${serverColumns.join(', ')}) SELECT ${serverColumns.join(', ')} FROM ${STAGING_SCHEMA}.media_servers
       ON CONFLICT (id) DO UPDATE SET ${serverColumns
         .filter((c) => c !== '"id"')
         .map((c) => `${c} = EXCLUDED.${c}`)
         .join(', ')}`,
    );
    await staging.swap();
    // After the swap, so that the cascade finds nothing in the restored tables (their rows were checked).
    await client.query(`DELETE FROM public.media_servers WHERE id NOT IN (SELECT id FROM ${STAGING_SCHEMA}.media_servers)`);
    // The restored items were copied in before their triggers existed, so their libraries' counts are recounted
    // here, after the cascade, in the transaction that makes them live.
    if (staging.replaced.includes('items')) await client.query(RECOUNT_LIBRARY_ITEMS_SQL);
    // Likewise the users' last plays, from the restored play_totals (swapped in with the history).
    if (staging.replaced.includes('playback_history')) await client.query(RECOUNT_USER_LAST_PLAYS_SQL);
    if (staging.replaced.includes('playback_history')) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('public.playback_history', 'id'), GREATEST((SELECT max(id) FROM public.playback_history), 1))`,
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
