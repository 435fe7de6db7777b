import type { Readable } from 'node:stream';
import { AppError } from '../errors/app-error.js';
import { parseTableHeader, readHeader } from './backup-restore.js';
import { walkJellystatFile } from './jellystat/jellystat-tokens.js';
import { LineReader } from './line-reader.js';
import { startsWith } from './stream-start.js';

/**
 * Reads a whole uploaded file once, without keeping it, and refuses what can never be restored: not JSON,
 * truncated, a foreign or newer format. Values are checked against the schema by the restore itself, which
 * stages everything before it changes anything.
 */
export async function inspectBackupFile(input: Readable): Promise<'reelstat' | 'jellystat'> {
  const { first, stream } = await startsWith(input);
  if (first === '[') {
    await walkJellystatFile(
      stream,
      () => undefined,
      () => undefined,
    );
    return 'jellystat';
  }
  if (first !== '{') {
    stream.destroy();
    throw AppError.badRequest('Not a backup file: it is not JSON (a Reelstat or Jellystat backup)');
  }
  const lines = new LineReader(stream);
  const manifest = await readHeader(lines);
  const seen: string[] = [];
  for (;;) {
    const line = await lines.next();
    if (line === undefined) throw AppError.badRequest('The backup file is truncated');
    if (line === ']}') break;
    const { table } = parseTableHeader(line, lines.lineNumber);
    let rows = 0;
    for (;;) {
      const row = await lines.next();
      if (row === undefined) throw AppError.badRequest(`The backup file is truncated in table ${table}`);
      if (row === ']}' || row === ']},') break;
      try {
        JSON.parse(row.endsWith(',') ? row.slice(0, -1) : row);
      } catch {
        throw AppError.badRequest(`Table ${table}, line ${lines.lineNumber}: not valid JSON (the file is damaged or truncated)`);
      }
      rows++;
    }
    if (rows !== manifest.rowCounts[table])
      throw AppError.badRequest(`Table ${table} has ${rows} rows but the manifest says ${manifest.rowCounts[table] ?? 0}`);
    seen.push(table);
  }
  for (const table of manifest.tables)
    if (!seen.includes(table)) throw AppError.badRequest(`The backup file is truncated: table ${table} is missing`);
  return 'reelstat';
}
