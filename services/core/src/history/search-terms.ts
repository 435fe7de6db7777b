/**
 * The history search's dictionary (migration 0025, history_search_terms): every distinct searchable value of
 * the history per field, with the key that reaches its plays through an index the history already has and how
 * many plays hold it. A server has a few hundred users, clients, devices and addresses and some hundred thousand
 * titles, while it has millions of plays: the search looks its word up among the values, then reads the plays of
 * the matching keys (history-search.ts). Kept by every writer of history in the same statement as the history
 * change (writeHistory, deletePlays, the rebuild of the rollups and the restore), like the rollups.
 *
 * Each kind's rows are disjoint sets of plays (a play has one value and one key per kind), and `reach` is the
 * condition on playback_history that finds a key's plays: the user scope's index for users, the item and series
 * indexes, and the expressions the history sorts by (HISTORY_SORTS: the sort indexes) for client, device and
 * address. A series name without a series id (a writer that sent none) is reached by its item.
 */
export const SEARCH_TERM_KINDS = {
  user: { value: 'user_name', key: 'user_id', where: 'true', reach: 'user_id' },
  series: { value: 'series_name', key: 'series_id', where: 'series_id IS NOT NULL', reach: 'series_id' },
  series_item: { value: 'series_name', key: 'item_id', where: 'series_id IS NULL', reach: 'item_id' },
  item: { value: 'item_name', key: 'item_id', where: 'true', reach: 'item_id' },
  client: { value: 'client', key: 'lower(client)', where: 'true', reach: 'lower(client)' },
  device: { value: 'device_name', key: 'lower(device_name)', where: 'true', reach: 'lower(device_name)' },
  address: { value: 'remote_end_point', key: 'remote_end_point', where: 'true', reach: 'remote_end_point' },
} as const;
export type SearchTermKind = keyof typeof SEARCH_TERM_KINDS;

/** The history columns a term delta reads (writers return these of the rows they change). */
export const SEARCH_TERM_COLUMNS = [
  'server_id',
  'user_id',
  'user_name',
  'item_id',
  'item_name',
  'series_id',
  'series_name',
  'client',
  'device_name',
  'remote_end_point',
] as const;

/**
 * Rows (server_id, kind, key, value, plays) to add to history_search_terms for history rows named `source`;
 * `weight` is an expression on `source` (1 adds a row, -1 subtracts it). Empty values are not terms: the search
 * word is never empty.
 */
export function searchTermsDelta(source: string, weight = '1'): string {
  const parts = Object.entries(SEARCH_TERM_KINDS).map(
    ([kind, { value, key, where }]) =>
      `SELECT server_id, '${kind}' AS kind, ${key} AS key, ${value} AS value, ${weight} AS w FROM ${source} AS s WHERE ${where} AND ${value} <> ''`,
  );
  return `SELECT server_id, kind, key, value, sum(w)::int AS plays FROM (
      ${parts.join('\n      UNION ALL ')}
    ) AS terms GROUP BY server_id, kind, key, value HAVING sum(w) <> 0`;
}

/** Adds the terms of history rows `source` (with a `weight` column) to history_search_terms: a writer's CTE body. */
export function addSearchTerms(source: string): string {
  return `INSERT INTO history_search_terms AS t (server_id, kind, key, value, plays)
       SELECT * FROM (${searchTermsDelta(source, 'weight')}) AS delta ORDER BY 2, 3, 4
       ON CONFLICT (server_id, kind, key, value) DO UPDATE SET plays = t.plays + EXCLUDED.plays
       RETURNING 1`;
}

/**
 * Subtracts the terms of deleted history rows `source` (a deleter's CTE body). Rows that reach zero are kept,
 * as the rollups keep theirs (the search reads only terms with plays).
 */
export function subtractSearchTerms(source: string): string {
  return `UPDATE history_search_terms t SET plays = t.plays - d.plays
       FROM (${searchTermsDelta(source)}) AS d
       WHERE (t.server_id, t.kind, t.key, t.value) = (d.server_id, d.kind, d.key, d.value)
       RETURNING 1`;
}
