/**
 * SQL that keeps a rollup level derived from another by statement triggers with transition tables (the pattern of
 * migrations 0006, 0013, 0020 and 0021, written once for the levels after them): an insert into `source` adds its
 * rows' delta, an update adds the new rows minus the old ones, a delete only subtracts (rows deleted with their
 * media server, ON DELETE CASCADE, must not be re-inserted).
 *
 * `delta(rows)` is a SELECT of (…key columns, plays, played_seconds) for `table` from `source`-shaped rows; `key`
 * the table's key columns; `columns` the source columns the delta reads (plays and played_seconds included).
 */
export function derivedLevelTriggers(options: {
  table: string;
  source: string;
  fn: string;
  key: string[];
  columns: string[];
  delta: (rows: string) => string;
}): string {
  const { table, source, fn, key, columns, delta } = options;
  const keyList = key.join(', ');
  const negated = columns.map((column) => (column === 'plays' || column === 'played_seconds' ? `-${column}` : column)).join(', ');
  const add = (rows: string) => `
    INSERT INTO ${table} AS d (${keyList}, plays, played_seconds)
    SELECT ${keyList}, plays, played_seconds FROM (${delta(rows)}) AS c
    ON CONFLICT (${keyList}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;`;
  return `
CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE ${table} d SET plays = d.plays - x.plays, played_seconds = d.played_seconds - x.played_seconds
    FROM (${delta('removed_rows')}) AS x
    WHERE (${key.map((column) => `d.${column}`).join(', ')}) = (${key.map((column) => `x.${column}`).join(', ')});
  ELSIF TG_OP = 'UPDATE' THEN
    ${add(`(SELECT ${columns.join(', ')} FROM added_rows UNION ALL SELECT ${negated} FROM previous_rows) AS difference`)}
  ELSE
    ${add('added_rows')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER ${table}_insert AFTER INSERT ON ${source}
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${table}_update AFTER UPDATE ON ${source}
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${table}_delete AFTER DELETE ON ${source}
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
`;
}
