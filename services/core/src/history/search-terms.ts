import { SEARCH_WORDS_REBUILD_SQL, writeSearchWords } from './search-words.js';

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
 * A term is *sure* (history_search_terms.sure, migration 0036) when every play its key reaches in its kind holds
 * its value: then a search whose word that value contains matches every one of those plays, and a count within a
 * user takes them from the user's covering index without reading them (user-search-count.ts). Only the
 * kinds that index carries (user, item and series ids) can be sure. The flag may be false where it could be true
 * (a key renamed once keeps it false until a rebuild), never the reverse: check:rollups reports a sure term whose
 * plays are not all of its key's (rollup-invariant.ts, level search_sure).
 *
 * Per sure kind: play_totals' scope whose row for the key counts at least every play of the key in that kind (the
 * user's plays; an item id's plays also count any play whose series or season has that id, a series id's any
 * play of an item with that id: more, never fewer, so an equal count is always right).
 */
export const SURE_KINDS: Partial<Record<SearchTermKind, { scope: 'user' | 'item' }>> = {
  user: { scope: 'user' },
  item: { scope: 'item' },
  series: { scope: 'item' },
  series_item: { scope: 'item' },
};
const sureKinds = () => (Object.keys(SURE_KINDS) as SearchTermKind[]).map((kind) => `'${kind}'`).join(', ');
const totalScope = (kind: string) =>
  `CASE ${kind} ${Object.entries(SURE_KINDS)
    .map(([name, { scope }]) => `WHEN '${name}' THEN '${scope}'`)
    .join(' ')} END`;

/**
 * Term rows `terms` (server_id, kind, key, value, plays) with their sure flag judged against `totals`
 * (play_totals, or its staged copy, counting the same history): a term whose plays are all of its key's.
 */
export function judgedSure(terms: string, totals: string): string {
  return `SELECT d.server_id, d.kind, d.key, d.value, d.plays,
      COALESCE(d.kind IN (${sureKinds()}) AND d.plays = p.plays, false) AS sure
    FROM ${terms} AS d
    LEFT JOIN ${totals} p ON p.server_id = d.server_id AND p.scope = ${totalScope('d.kind')} AND p.key = d.key`;
}

/** Rows (server_id, kind, key, value, plays, sure) of history_search_terms for the whole history `source` (rebuild, restore). */
export const searchTermsWithSure = (source: string, totals: string) => judgedSure(`(${searchTermsDelta(source)})`, totals);

/** Rows (server_id, kind, key, plays) of history rows `source`: each key's plays in each sure kind (check:rollups). */
export function sureDomainsOf(source: string): string {
  return `SELECT server_id, kind, key, count(*)::int AS plays FROM (${sureKeysOf(source)}) AS k GROUP BY 1, 2, 3`;
}

/**
 * Rows (server_id, kind, key, value) of history rows `source` for each sure kind, the value '' when it is empty or
 * missing (a play no term holds): what a write adds to each key, to tell whether its plays still hold one value.
 */
function sureKeysOf(source: string): string {
  return (Object.keys(SURE_KINDS) as SearchTermKind[])
    .map((kind) => {
      const { value, key, where } = SEARCH_TERM_KINDS[kind];
      return `SELECT server_id, '${kind}' AS kind, ${key} AS key, COALESCE(${value}, '') AS value FROM ${source} AS s WHERE ${where}`;
    })
    .join('\n       UNION ALL ');
}

/**
 * CTEs (search_delta, search_rows, searched_terms, searched_values; with `adding`, search-words.ts's too) that add
 * the terms and values of history rows `source` (with a `weight` column, -1 for removed rows) to the dictionary:
 * part of a writer's WITH statement. Rows added (`adding`) also keep the terms' sure flags: a term stays sure
 * while the added plays of its key all hold its value; a new term is sure when its key had no play before this
 * statement (play_totals as the statement sees it) and its added plays all hold it; a sure term of a key whose
 * added plays hold another value (or none) is cleared (a row of its own in the same upsert: a statement may change
 * a row once). Removing plays leaves the flags as they are (the plays left still hold the value), and adds no
 * term, so no word either.
 */
export function writeSearchTerms(source: string, adding = true): string {
  // Each term row written; when adding, with its flag before the statement too (was_sure, NULL for a new term): the
  // words follow it. A removal's rows clear no flag and add no term, so they need neither.
  const rows = adding
    ? `SELECT d.server_id, d.kind, d.value, d.key, d.plays,
           EXISTS (SELECT 1 FROM search_single s WHERE s.server_id = d.server_id AND s.kind = d.kind AND s.key = d.key AND s.value = d.value)
           AND (e.sure IS NOT NULL
             OR COALESCE((SELECT p.plays FROM play_totals p WHERE p.server_id = d.server_id AND p.scope = ${totalScope('d.kind')} AND p.key = d.key), 0) = 0) AS sure,
           e.sure AS was_sure
         FROM search_delta d
         LEFT JOIN history_search_terms e ON e.server_id = d.server_id AND e.kind = d.kind AND e.value = d.value AND e.key = d.key
         UNION ALL
         SELECT DISTINCT t.server_id, t.kind, t.value, t.key, 0, false, true
         FROM search_keys k JOIN history_search_terms t ON t.server_id = k.server_id AND t.kind = k.kind AND t.key = k.key AND t.sure
         WHERE t.value <> k.value AND NOT EXISTS (
           SELECT 1 FROM search_delta d WHERE d.server_id = t.server_id AND d.kind = t.kind AND d.value = t.value AND d.key = t.key)`
    : `SELECT server_id, kind, value, key, plays, false AS sure FROM search_delta`;
  return `search_delta AS (${searchTermsDelta(source, 'weight')}),${
    adding
      ? `
     search_keys AS (${sureKeysOf(source)}),
     search_single AS (
       SELECT server_id, kind, key, min(value) AS value FROM search_keys GROUP BY 1, 2, 3 HAVING count(DISTINCT value) = 1 AND min(value) <> ''
     ),`
      : ''
  }
     search_rows AS ${adding ? 'MATERIALIZED ' : ''}(${rows}),
     searched_terms AS (
       INSERT INTO history_search_terms AS t (server_id, kind, value, key, plays, sure)
       SELECT server_id, kind, value, key, plays, sure FROM search_rows ORDER BY 2, 3, 4
       ON CONFLICT (server_id, kind, value, key) DO UPDATE SET plays = t.plays + EXCLUDED.plays${adding ? ', sure = t.sure AND EXCLUDED.sure' : ''}
       RETURNING 1
     ), searched_values AS (
       INSERT INTO history_search_values AS v (server_id, kind, value, plays)
       SELECT * FROM (${searchValuesFrom('search_delta')}) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, kind, value) DO UPDATE SET plays = v.plays + EXCLUDED.plays
       RETURNING 1
     )${adding ? `, ${writeSearchWords('search_rows')}` : ''}`;
}

/**
 * The SQL that fills both dictionary tables from the whole history as migration 0025 created them (that
 * migration; 0036 added the sure flags, which SEARCH_TERMS_REBUILD_SQL fills).
 */
export const SEARCH_TERMS_BACKFILL_SQL = `INSERT INTO history_search_terms (server_id, kind, key, value, plays)
${searchTermsDelta('playback_history')};
INSERT INTO history_search_values (server_id, kind, value, plays)
${searchValuesFrom('history_search_terms')};`;

/** The dictionary's tables, sure flags and words included, from the whole history and the play_totals rebuilt from it. */
export const SEARCH_TERMS_REBUILD_SQL = `INSERT INTO history_search_terms (server_id, kind, key, value, plays, sure)
${searchTermsWithSure('playback_history', 'play_totals')};
INSERT INTO history_search_values (server_id, kind, value, plays)
${searchValuesFrom('history_search_terms')};
${SEARCH_WORDS_REBUILD_SQL}`;
