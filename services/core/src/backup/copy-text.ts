import { AppError } from '../errors/app-error.js';
import type { ColumnInfo } from './table-columns.js';

const SPECIAL = /[\\\n\r\t]/;

/** Escapes a value for COPY's text format. */
function escapeText(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

function arrayLiteral(values: unknown[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/**
 * One backup row (a JSON array in column order) as a line of COPY text. PostgreSQL then checks every value
 * against the column's type and constraints: a wrong type is refused there, with the table, line and column.
 */
export function copyLine(row: unknown, columns: readonly ColumnInfo[], where: () => string): string {
  if (!Array.isArray(row) || row.length !== columns.length) {
    throw AppError.badRequest(`${where()}: expected an array of ${columns.length} values`);
  }
  const out = new Array<string>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const value: unknown = row[i];
    const type = columns[i]!.type;
    if (value === null || value === undefined) out[i] = '\\N';
    else if (type === 'json' || type === 'jsonb') out[i] = escapeText(JSON.stringify(value));
    else if (type.startsWith('_')) {
      if (!Array.isArray(value)) throw AppError.badRequest(`${where()}: column ${columns[i]!.name} must be an array`);
      out[i] = escapeText(arrayLiteral(value));
    } else if (typeof value === 'object') {
      throw AppError.badRequest(
        `${where()}: column ${columns[i]!.name} (${type}) cannot hold ${Array.isArray(value) ? 'an array' : 'an object'}`,
      );
    } else out[i] = escapeText(String(value));
  }
  return out.join('\t');
}
