import { containsPattern, type Query, type SearchPlan } from './search-plan.js';
import { SEARCH_TERM_KINDS, type SearchTermKind } from './search-terms.js';
import { wordKeysHolding } from './search-words.js';

/*
 * The count of a search within one user (no other filter) from the user's covering index, for a word whose walk
 * would read every play of the user (docs/performance.md, "A common word within one user"): the dictionary's
 * terms that hold the word name the keys; a sure term (search-terms.ts SURE_KINDS, kept by the writers) says
 * that every play of its key matches, so those plays are counted from history_user_cover alone (it carries the
 * item and series ids), and only the other candidates' plays are read and checked.
 */

/** A user's count is taken from the index for a word of at most this many terms (more: the walk costs less). */
export const USER_INDEX_TERMS = 20_000;

type CoveredKind = 'user' | KeyKind;
/** The kinds whose keys the index carries on each play. */
type KeyKind = 'item' | 'series' | 'series_item';

/**
 * Conditions on the user scope's covering index (history_user_cover: server, user, start, id, including the item
 * and series ids) that find the plays of a kind's keys, given `isIn(column)`: the column is one of the kind's
 * keys (a set of (kind, key) rows in one statement, a list given as a value in the other). The user's own key is
 * not here: every play of the scope is the user's, so it is tested once, not per play.
 */
const KEY_TESTS: Record<KeyKind, (isIn: (column: string) => string) => string> = {
  item: (isIn) => isIn('item_id'),
  series: (isIn) => isIn('series_id'),
  series_item: (isIn) => `(series_id IS NULL AND ${isIn('item_id')})`,
};
const COVERED_KINDS: CoveredKind[] = ['user', 'item', 'series', 'series_item'];

/** The walk's conditions on the user's plays: `servers` and `user` refer to `bind` ($1, $2), `where` adds the search's check. */
export interface UserWalk {
  servers: string;
  user: string;
  where: string[];
  bind: unknown[];
}

/** How a count treats a candidate of a kind the index does not carry (a client, device, address). */
export type UntestedKinds = 'read' | 'none';

/** Whose plays are counted, up to `cap` + 1. */
export interface UserCountScope {
  serverIds: string[];
  userId: string;
  walk: UserWalk;
  /** The user's plays (play_totals). */
  userPlays: number;
  cap: number;
}

export interface UserCountOptions {
  /**
   * `read` (the default): a candidate of a kind the index does not carry makes every play of the user read and
   * checked; `none`: the count is null then (a count started before the plan, which may walk more cheaply).
   */
  untestedKinds?: UntestedKinds;
  /** False: the general statement only (tests take both ways on the same data). */
  keysAsValues?: boolean;
  /** Users with at least this many plays are counted in two halves (HALVED_USER_PLAYS; tests lower it). */
  halvedUserPlays?: number;
}

/**
 * The count of a search within one user (no other filter), up to `cap` + 1; null when the word has more terms
 * than USER_INDEX_TERMS or than half the user's plays (`userPlays`): then the caller walks the user's plays
 * instead; undefined when the plan names no family.
 *
 * First the family's terms are read once (a word without a space: its keys from the dictionary's words,
 * search-words.ts; else history_search_terms directly, by its trigram index, migration 0036):
 * how many, whether a kind the index does not carry is among them, whether the user's own name holds the word,
 * and per kind the keys that are sure (a key is sure when one of its terms is sure and holds the whole word) and
 * those that are not. The lists come back as the next statement's parameters: PostgreSQL tests an index entry
 * against a list given as a value with one hash look-up (a hashed `= ANY`), cheaper than the hashed subqueries
 * over a CTE that one statement needs, and the terms are not scanned again for each kind (docs/performance.md,
 * "Sure keys as values, and shared buffers sized to the machine"). Sure keys' plays are counted from the index;
 * the plays of keys not sure (a title renamed since) are found in the index, then read and checked. A value of a
 * kind the index does not carry (a client, device, address) makes every play of the user a candidate: one
 * statement reads and checks them (generalCount), or with `untestedKinds` 'none' the count is null (a count
 * started before the plan, which may walk more cheaply).
 */
export async function userIndexCount(
  query: Query,
  plan: SearchPlan,
  word: string,
  user: UserCountScope,
  options: UserCountOptions = {},
): Promise<number | null | undefined> {
  const { serverIds, userId, walk, userPlays, cap } = user;
  const { untestedKinds = 'read', keysAsValues = true, halvedUserPlays = HALVED_USER_PLAYS } = options;
  const family = familyTerms(plan, word);
  if (!family) return undefined;
  if (!keysAsValues) return generalCount(query, family, serverIds, walk, userPlays, cap, untestedKinds);
  const bind: unknown[] = [serverIds, userId];
  const terms = family.terms(bind, '$1::uuid[]');
  // Per kind the index carries: the sure keys, and the others (their plays are read and checked).
  const lists = family.tested
    .filter((kind) => kind !== 'user')
    .flatMap((kind) => [
      `array_agg(key) FILTER (WHERE sure AND kind = '${kind}')::text AS "${kind}"`,
      `array_agg(key) FILTER (WHERE NOT sure AND kind = '${kind}')::text AS "unsure ${kind}"`,
    ]);
  // A heavy user's plays are counted in two halves at the middle of their time span, on two connections.
  const halves = userPlays >= halvedUserPlays;
  // The first and last start per server: two index look-ups each (over a list of servers, min and max would
  // read every play of the user).
  const middle = `(SELECT (min(first) + (max(last) - min(first)) / 2)::text FROM unnest($1::uuid[]) AS s (id),
       LATERAL (SELECT min(started_at) AS first, max(started_at) AS last FROM playback_history WHERE server_id = s.id AND user_id = $2) AS span)`;
  const [keys] = (await query(
    // The terms are aggregated as they are read: materialised first (a CTE), they cost a copy (at 5 M, `storm`'s
    // 11,512 keys: 15 ms instead of 10).
    `SELECT count(*)::int AS terms,
       COALESCE(bool_or(${family.untested}), false) AS untested,
       COALESCE(bool_or(sure AND kind = 'user' AND key = $2), false) AS user_sure,
       COALESCE(bool_or(NOT sure AND kind = 'user' AND key = $2), false) AS user_unsure,
       ${halves ? middle : 'NULL::text'} AS middle
       ${lists.map((list) => `, ${list}`).join('')}
     FROM (${terms}) AS keys`,
    bind,
  )) as Array<
    { terms: number; untested: boolean; user_sure: boolean; user_unsure: boolean; middle: string | null } & Record<string, string | null>
  >;
  if (!keys || keys.terms > USER_INDEX_TERMS || 2 * keys.terms >= userPlays) return null;
  if (keys.untested && untestedKinds === 'none') return null;
  // A kind the index does not carry, or the user's own name not sure: every play of the user is a candidate.
  if (keys.untested || keys.user_unsure) return generalCount(query, family, serverIds, walk, userPlays, cap, untestedKinds);
  if (keys.user_sure) return Math.min(userPlays, cap + 1);
  const present = (prefix: string) => family.tested.filter((kind): kind is KeyKind => kind !== 'user' && keys[`${prefix}${kind}`] != null);
  const sureKinds = present('');
  const unsureKinds = present('unsure ');
  if (sureKinds.length === 0 && unsureKinds.length === 0) return 0;
  // The walk's servers and user ($1, $2); with keys not sure, the search's own condition checks their plays, and
  // its parameters come along (a parameter the statement does not use has no type and fails it).
  const passBind: unknown[] = unsureKinds.length > 0 ? [...walk.bind] : walk.bind.slice(0, 2);
  // Inside a CASE the lists are not estimated one value at a time (37 ms of planning for 11 k keys as a bare
  // condition); the planner turns each into a hashed test all the same, being a value of the statement.
  const anyOf = (kinds: KeyKind[], prefix: string) =>
    kinds.length === 0
      ? undefined
      : `CASE WHEN ${kinds
          .map((kind) => {
            const list = `$${passBind.push(keys[`${prefix}${kind}`])}::text[]`;
            return KEY_TESTS[kind]((column) => `${column} = ANY(${list})`);
          })
          .join(' OR ')} THEN true ELSE false END`;
  const sure = anyOf(sureKinds, '');
  const unsure = anyOf(unsureKinds, 'unsure ');
  const scope = `${walk.servers} AND user_id = ${walk.user}`;
  const count = async (span: string, spanBind: unknown[]) => {
    const [row] = (await query(
      `SELECT count(*)::int AS count FROM (
         ${sure ? `SELECT 1 FROM playback_history WHERE ${scope} ${span} AND ${sure}` : ''}
         ${sure && unsure ? 'UNION ALL' : ''}
         ${
           unsure
             ? // The candidates' ids first (one pass over the index), then their rows by id and the check: as an
               // IN, the planner read every play of the user with the check and joined them (40–60 ms at 5 M).
               `SELECT 1 FROM playback_history WHERE id = ANY(ARRAY(
                  SELECT id FROM playback_history WHERE ${scope} ${span} AND ${unsure} ${sure ? `AND NOT ${sure}` : ''}
                )) AND ${walk.where.join(' AND ')}`
             : ''
         }
         LIMIT ${cap + 1}
       ) AS hits`,
      [...passBind, ...spanBind],
    )) as Array<{ count: number }>;
    return row!.count;
  };
  if (keys.middle == null) return count('', []);
  // Every play is in exactly one half (the same middle, as the database wrote it, bounds both).
  const at = `$${passBind.length + 1}::timestamptz`;
  const [before, after] = await Promise.all([
    count(`AND started_at < ${at}`, [keys.middle]),
    count(`AND started_at >= ${at}`, [keys.middle]),
  ]);
  return Math.min(before + after, cap + 1);
}

/**
 * A user with at least this many plays has them counted in two halves at once (on two connections): at 5 M
 * plays user-3's 68,596 plays took 16.4 ms in one statement, 10.5 ms in two halves; a smaller user's count
 * costs little either way, and a second statement adds its planning and its hashed lists.
 */
export const HALVED_USER_PLAYS = 20_000;

/**
 * The family's terms as a statement's parts: `terms(bind, servers)` selects (kind, key, sure) of every term of
 * the family (for a word without a space, of each of its words' keys, a key perhaps more than once; at most
 * USER_INDEX_TERMS + 1 rows), `tested` the kinds the index carries that the family's values may
 * be of, `untested` the condition on a term of another kind.
 */
function familyTerms(plan: SearchPlan, word: string) {
  if (!plan.family || plan.family.length === 0) return undefined;
  const family = plan.family;
  const possible = new Set(plan.familyKinds ?? (Object.keys(SEARCH_TERM_KINDS) as SearchTermKind[]));
  const tested = COVERED_KINDS.filter((kind) => possible.has(kind));
  // A term of a kind not tested on the index (a client, device, address; any other for safety) makes every play
  // of the user a candidate.
  const untested = tested.length > 0 ? `kind NOT IN (${tested.map((kind) => `'${kind}'`).join(', ')})` : 'true';
  const terms = (bind: unknown[], servers: string) => {
    const param = (value: unknown) => {
      bind.push(value);
      return `$${bind.length}`;
    };
    const wholePattern = containsPattern(word);
    // A word without a space lies within one of the words of any value holding it: its keys come from the
    // dictionary's words (search-words.ts), a few index pages, where the trigram look-up of its terms reads
    // nearly every page of history_search_terms for a common word.
    if (!word.includes(' ') && family.length === 1 && family[0]!.pattern === wholePattern) {
      return wordKeysHolding(servers, param(wholePattern), USER_INDEX_TERMS + 1);
    }
    const patterns = family.map(({ pattern }) => `lower(t.value) LIKE lower(${param(pattern)})`);
    // A term is read when it matches a pattern of the family: when that is the whole word alone, no second test.
    const holds =
      family.length === 1 && family[0]!.pattern === wholePattern
        ? 't.sure'
        : `t.sure AND lower(t.value) LIKE lower(${param(wholePattern)})`;
    return `SELECT t.kind, t.key, ${holds} AS sure FROM history_search_terms t
       WHERE t.server_id = ANY(${servers}) AND t.plays > 0 AND (${patterns.join(' OR ')})
       LIMIT ${USER_INDEX_TERMS + 1}`;
  };
  return { tested, untested, terms };
}

/**
 * One statement giving the count when a value is of a kind the index does not carry or the user's own name is
 * not sure (and for tests, `keysAsValues: false`): sure keys' plays are counted from the index; the other
 * candidates' plays (of the family's keys that are not sure, or every play of the user when a candidate is a
 * client, device or address) are read and checked (`walk.where`: the user and the search's check). NULL for the
 * same limits as userIndexCount.
 */
async function generalCount(
  query: Query,
  family: NonNullable<ReturnType<typeof familyTerms>>,
  serverIds: string[],
  walk: UserWalk,
  userPlays: number,
  cap: number,
  untestedKinds: UntestedKinds,
): Promise<number | null> {
  const bind = [...walk.bind];
  const servers = `$${bind.push(serverIds)}::uuid[]`;
  const terms = family.terms(bind, servers);
  const covered = (keys: string) =>
    family.tested
      .map((kind) =>
        kind === 'user'
          ? `EXISTS (SELECT 1 FROM ${keys} WHERE kind = 'user' AND key = ${walk.user})`
          : KEY_TESTS[kind]((column) => `${column} IN (SELECT key FROM ${keys} WHERE kind = '${kind}')`),
      )
      .join(' OR ') || 'false';
  const scope = `${walk.servers} AND user_id = ${walk.user}`;
  const [row] = (await query(
    `WITH keys AS MATERIALIZED (${terms}),
     -- Read straight from keys by each kind's hashed test (materialised apart, it cost a copy: 3 ms of 34 at 5 M).
     sure AS NOT MATERIALIZED (SELECT kind, key FROM keys WHERE sure),
     terms AS MATERIALIZED (SELECT count(*) AS terms FROM keys)
     SELECT CASE WHEN (SELECT terms FROM terms) <= ${USER_INDEX_TERMS} AND 2 * (SELECT terms FROM terms) < $${bind.push(userPlays)}::int
       ${untestedKinds === 'none' ? `AND NOT EXISTS (SELECT 1 FROM keys WHERE ${family.untested})` : ''}
       THEN (SELECT count(*) FROM (
         SELECT 1 FROM playback_history WHERE ${scope} AND (${covered('sure')})
         UNION ALL
         SELECT 1 FROM playback_history WHERE EXISTS (SELECT 1 FROM keys WHERE NOT sure OR ${family.untested}) AND ${walk.where.join(' AND ')} AND id IN (
           SELECT id FROM playback_history WHERE ${scope}
             AND (${covered('keys')} OR EXISTS (SELECT 1 FROM keys WHERE ${family.untested}))
             AND (${covered('sure')}) IS NOT TRUE
         )
         LIMIT ${cap + 1}
       ) AS hits)
     END::int AS count`,
    bind,
  )) as Array<{ count: number | null }>;
  return row?.count ?? null;
}
