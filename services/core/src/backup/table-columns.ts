import type pg from 'pg';

export interface ColumnInfo {
  name: string;
  /** PostgreSQL type name (udt_name): text, int4, int8, bool, timestamptz, jsonb, _text… */
  type: string;
}

/** The live columns of public tables, in table order. */
export async function readColumns(client: pg.Client, tables: readonly string[]): Promise<Map<string, ColumnInfo[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; udt_name: string }>(
    `SELECT table_name, column_name, udt_name FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = ANY($1::text[]) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const columns = new Map<string, ColumnInfo[]>(tables.map((table) => [table, []]));
  for (const row of rows) columns.get(row.table_name)!.push({ name: row.column_name, type: row.udt_name });
  return columns;
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
