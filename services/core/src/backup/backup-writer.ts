import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { Database } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import { VERSION } from '../version.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, newBackupFileName, type BackupManifest } from './backup-format.js';
import type { BackupStore, StoredBackup } from './backup-store.js';
import { includedTables } from './backup-tables.js';
import { fileColumnValue, fileColumns } from './history-file-columns.js';
import { quoteIdent, readColumns } from './table-columns.js';

export interface BackupProgress {
  rowsWritten: number;
  rowsTotal: number;
  table: string;
}

export interface WriteBackupOptions {
  excluded: readonly string[];
  compress: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: BackupProgress) => void;
  now?: Date;
}

/**
 * Streams a backup of the database into the store. Every table is read in one REPEATABLE READ snapshot (the
 * row counts of the manifest and the rows agree even while plays are recorded) with COPY, one JSON array per
 * row built by PostgreSQL, so memory stays flat whatever the history size.
 */
export async function writeBackup(db: Database, store: BackupStore, options: WriteBackupOptions): Promise<StoredBackup> {
  const client = new pg.Client({ connectionString: db.url, application_name: 'reelstat-backup' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = includedTables(options.excluded);
    const columns = await readColumns(
      client,
      tables.map((t) => t.name),
    );
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${quoteIdent(table.name)}`);
      counts[table.name] = Number(rows[0]!.n);
    }
    const { rows: servers } = await client.query<{ id: string }>('SELECT id FROM media_servers ORDER BY id');
    const { rows: applied } = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
    const appliedNames = new Set(applied.map((row) => row.name));
    const now = options.now ?? new Date();
    const manifest: BackupManifest = {
      reelstatVersion: VERSION,
      schemaMigration: [...migrations].reverse().find((m) => appliedNames.has(m.name))?.name ?? '',
      createdAt: now.toISOString(),
      serverIds: servers.map((s) => s.id),
      tables: tables.map((t) => t.name),
      excluded: [...options.excluded],
      rowCounts: counts,
    };
    const rowsTotal = Object.values(counts).reduce((a, b) => a + b, 0);
    let rowsWritten = 0;

    async function* document(): AsyncGenerator<string> {
      yield `${JSON.stringify({ format: BACKUP_FORMAT, formatVersion: BACKUP_FORMAT_VERSION, manifest }).slice(0, -1)},"tables":[\n`;
      for (const [index, table] of tables.entries()) {
        const names = fileColumns(table.name, columns.get(table.name)!).map((c) => c.name);
        yield `${JSON.stringify({ table: table.name, columns: names }).slice(0, -1)},"rows":[\n`;
        const values = names.map((name) => fileColumnValue(table.name, name));
        const select = `SELECT json_build_array(${values.join(', ')}) FROM ${quoteIdent(table.name)} ORDER BY ${table.primaryKey.map(quoteIdent).join(', ')}`;
        const copy = client.query(copyStreams.to(`COPY (${select}) TO STDOUT`));
        let rest = '';
        let first = true;
        for await (const chunk of copy as AsyncIterable<Buffer>) {
          options.signal?.throwIfAborted();
          const text = rest + chunk.toString('utf8');
          const end = text.lastIndexOf('\n');
          if (end < 0) {
            rest = text;
            continue;
          }
          rest = text.slice(end + 1);
          const lines = text.slice(0, end).split('\n');
          rowsWritten += lines.length;
          // COPY's text format doubles backslashes; JSON has no raw tabs or newlines, so that is the only escape.
          const out = lines.map(unescapeCopyText).join(',\n');
          yield first ? out : `,\n${out}`;
          first = false;
          options.onProgress?.({ rowsWritten, rowsTotal, table: table.name });
        }
        if (rest) throw new Error(`backup of ${table.name} ended in the middle of a row`);
        yield `${first ? '' : '\n'}]}${index < tables.length - 1 ? ',' : ''}\n`;
      }
      yield ']}\n';
    }

    const source = Readable.from(document(), { objectMode: false });
    const stored = await store.write(newBackupFileName(now, options.compress), options.compress ? source.pipe(createGzip()) : source);
    await client.query('COMMIT');
    return stored;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function unescapeCopyText(line: string): string {
  return line.includes('\\') ? line.replace(/\\\\/g, '\\') : line;
}
