import { containsPattern, type SearchPlan } from './search-plan.js';
import { SEARCH_TERM_KINDS, type SearchTermKind } from './search-terms.js';

/*
 * The count of a search within one user (no other filter) from the user's covering index, for a word whose walk
 * would read every play of the user (docs/performance.md, "A common word within one user"): the dictionary's
 * terms that hold the word name the keys; a sure term (search-terms.ts SURE_KINDS, kept by the writers) says
 * that every play of its key matches, so those plays are counted from history_user_cover alone (it carries the
 * item and series ids), and only the other candidates' plays are read and checked.
 */

/** A user's count is taken from the index for a word of at most this many terms (more: the walk costs less). */
export const USER_INDEX_TERMS = 20_000;

/**
 * Conditions on the user scope's covering index (history_user_cover: server, user, start, id, including the item
 * and series ids) that find the plays of a kind's keys, named by a set `keys` of (kind, key) rows. Every play of
 * the scope is the user's: the user's own key is tested once, not per play.
 */
const COVERED_KINDS: Partial<Record<SearchTermKind, (keys: string, user: string) => string>> = {
  user: (keys, user) => `EXISTS (SELECT 1 FROM ${keys} WHERE kind = 'user' AND key = ${user})`,
  item: (keys) => `item_id IN (SELECT key FROM ${keys} WHERE kind = 'item')`,
  series: (keys) => `series_id IN (SELECT key FROM ${keys} WHERE kind = 'series')`,
  series_item: (keys) => `(series_id IS NULL AND item_id IN (SELECT key FROM ${keys} WHERE kind = 'series_item'))`,
};

/**
 * One statement giving `count`: the user's matches up to `cap` + 1, or NULL when the word has more terms than
 * USER_INDEX_TERMS or than half the user's plays (`userPlays`): then the caller walks the user's plays instead.
 * The family's terms are read from history_search_terms directly (its trigram index, migration 0036; the values'
 * table is not joined): a key is sure when one of its terms is sure and holds the whole word. Sure keys' plays
 * are counted from the index; the other candidates' plays (of the family's keys that are not sure, or every play
 * of the user when a candidate is a client, device or address, which the index does not carry) are read and
 * checked (`history.where`: the user and the search's check). Only the kinds the family's values may be of are
 * tested on each index entry. `bind` is extended; `history.servers` and `history.user` are conditions and a
 * parameter of the walk's bind.
 */
export function userIndexCount(
  plan: SearchPlan,
  word: string,
  bind: unknown[],
  serverIds: string[],
  history: { servers: string; user: string; where: string[] },
  userPlays: number,
  cap: number,
  /**
   * `read` (the default): a candidate of a kind the index does not carry makes every play of the user read and
   * checked; `none`: the count is NULL then (a count started before the plan, which may walk more cheaply).
   */
  untestedKinds: 'read' | 'none' = 'read',
): string | undefined {
  if (!plan.family || plan.family.length === 0) return undefined;
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const servers = `${param(serverIds)}::uuid[]`;
  const wholePattern = containsPattern(word);
  const patterns = plan.family.map(({ pattern }) => `lower(t.value) LIKE lower(${param(pattern)})`);
  // A term is read when it matches a pattern of the family: when that is the whole word alone, no second test.
  const holds =
    plan.family.length === 1 && plan.family[0]!.pattern === wholePattern
      ? 't.sure'
      : `t.sure AND lower(t.value) LIKE lower(${param(wholePattern)})`;
  const possible = new Set(plan.familyKinds ?? (Object.keys(SEARCH_TERM_KINDS) as SearchTermKind[]));
  const tested = (Object.keys(COVERED_KINDS) as SearchTermKind[]).filter((kind) => possible.has(kind));
  const covered = (keys: string) => tested.map((kind) => COVERED_KINDS[kind]!(keys, history.user)).join(' OR ') || 'false';
  // A term of a kind not tested on the index (a client, device, address; any other for safety) makes every play
  // of the user a candidate.
  const untested = tested.length > 0 ? `kind NOT IN (${tested.map((kind) => `'${kind}'`).join(', ')})` : 'true';
  const scope = `${history.servers} AND user_id = ${history.user}`;
  return `WITH keys AS MATERIALIZED (
       SELECT t.kind, t.key, ${holds} AS sure FROM history_search_terms t
       WHERE t.server_id = ANY(${servers}) AND t.plays > 0 AND (${patterns.join(' OR ')})
       LIMIT ${USER_INDEX_TERMS + 1}
     ),
     -- Read straight from keys by each kind's hashed test (materialised apart, it cost a copy: 3 ms of 34 at 5 M).
     sure AS NOT MATERIALIZED (SELECT kind, key FROM keys WHERE sure),
     terms AS MATERIALIZED (SELECT count(*) AS terms FROM keys)
     SELECT CASE WHEN (SELECT terms FROM terms) <= ${USER_INDEX_TERMS} AND 2 * (SELECT terms FROM terms) < ${param(userPlays)}::int
       ${untestedKinds === 'none' ? `AND NOT EXISTS (SELECT 1 FROM keys WHERE ${untested})` : ''}
       THEN (SELECT count(*) FROM (
         SELECT 1 FROM playback_history WHERE ${scope} AND (${covered('sure')})
         UNION ALL
         SELECT 1 FROM playback_history WHERE EXISTS (SELECT 1 FROM keys WHERE NOT sure OR ${untested}) AND ${history.where.join(' AND ')} AND id IN (
           SELECT id FROM playback_history WHERE ${scope}
             AND (${covered('keys')} OR EXISTS (SELECT 1 FROM keys WHERE ${untested}))
             AND (${covered('sure')}) IS NOT TRUE
         )
         LIMIT ${cap + 1}
       ) AS hits)
     END::int AS count`;
}
