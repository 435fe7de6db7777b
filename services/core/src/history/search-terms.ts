/**
 * The history search's dictionary (migration 0025): history_search_values holds every distinct searchable value
 * of the history per field (kind) with how many plays hold it, and history_search_terms each value with the keys
 * that reach its plays through an index the history already has (and their plays). The values are few (a title
 * shared by many episodes is one value) and trigram-indexed; the keys are read only for a rare value. A server has a few hundred users, clients, devices and addresses and some hundred thousand
 * titles, while it has millions of plays: the search looks its word up among the values, then reads the plays of
 * the matching keys (search-plan.ts). Kept by every writer of history in the same statement as the history
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

/** Rows (server_id, kind, value, plays) for history_search_values from term rows `terms` (searchTermsDelta's shape). */
export function searchValuesFrom(terms: string): string {
  return `SELECT server_id, kind, value, sum(plays)::int AS plays FROM ${terms} AS t GROUP BY 1, 2, 3 HAVING sum(plays) <> 0`;
}

/**
 * CTEs (search_delta, searched_terms, searched_values) that add the terms and values of history rows `source`
 * (with a `weight` column, -1 for removed rows) to the dictionary: part of a writer's WITH statement.
 */
export function writeSearchTerms(source: string): string {
  return `search_delta AS (${searchTermsDelta(source, 'weight')}),
     searched_terms AS (
       INSERT INTO history_search_terms AS t (server_id, kind, value, key, plays)
       SELECT server_id, kind, value, key, plays FROM search_delta ORDER BY 2, 3, 4
       ON CONFLICT (server_id, kind, value, key) DO UPDATE SET plays = t.plays + EXCLUDED.plays
       RETURNING 1
     ), searched_values AS (
       INSERT INTO history_search_values AS v (server_id, kind, value, plays)
       SELECT * FROM (${searchValuesFrom('search_delta')}) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, kind, value) DO UPDATE SET plays = v.plays + EXCLUDED.plays
       RETURNING 1
     )`;
}

/** The SQL that fills both dictionary tables from the whole history (rebuild, migration). */
export const SEARCH_TERMS_BACKFILL_SQL = `INSERT INTO history_search_terms (server_id, kind, key, value, plays)
${searchTermsDelta('playback_history')};
INSERT INTO history_search_values (server_id, kind, value, plays)
${searchValuesFrom('history_search_terms')};`;
