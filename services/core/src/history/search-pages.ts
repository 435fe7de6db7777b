import type { Database } from '../db/database.js';
import type { HistoryRequest, HistorySelection, HistorySort, SearchTuning } from './history-query.js';
import { SEARCH_TERM_KINDS, type SearchTermKind } from './search-terms.js';
import { containsPattern, datedWalkCost, INDEX_ENTRIES_PER_ROW, keyedPage, walkCost, type SearchPlan } from './search-plan.js';

/*
 * How a history search reads its page, and the scoped counts' cheaper reads (history-query.ts assembles them):
 * the page plans (a walk in the page's order, the candidates read by key, date order key by key, or a walk of the
 * date index keeping the candidates' plays), a rare word within one user through the user's covering index, and
 * a scope's count checked by field values. Why each exists and what it costs: docs/performance.md, "Server-wide
 * search, any word" and "Search within a user or a library".
 */

/**
 * Reading one candidate play from the table costs about as much as this many entries of a user's covering index
 * (a random table page against entries read in order; measured at 5 M plays: docs/performance.md, "Search within
 * a user or a library").
 */
export const CANDIDATE_READ_COST = 10;
/** Candidate keys that history_user_cover carries (its key, or included columns). */
const COVERED_REACHES = new Set(['user_id', 'item_id', 'series_id']);

/** Whether the plan has candidate keys and every one is in history_user_cover (none: the keyed plan reads nothing). */
export function coveredKeys(plan: SearchPlan): boolean {
  return plan.candidates !== undefined && plan.candidates.length > 0 && plan.candidates.every(({ reach }) => COVERED_REACHES.has(reach));
}

/**
 * The plays of one user (no other filter) reached by the candidate keys, found in history_user_cover alone (in its
 * start order, so a page stops early), then checked in the table: `selection` is the walk's (server, user, the
 * search's check), its bind extended here. The key filter sits in a subquery of its own so that it runs on the
 * index entries before any table read (a condition on an included column of a plain index scan is only checked
 * on the table row).
 */
export function userCoverRows(candidates: NonNullable<SearchPlan['candidates']>, selection: HistorySelection, columns: string): string {
  const [servers, user, ...checks] = selection.where;
  const reached = candidates.map(({ reach, keys }) => {
    selection.bind.push(keys);
    return `${reach} = ANY($${selection.bind.length}::text[])`;
  });
  return `SELECT ${columns} FROM (
        SELECT id, started_at FROM playback_history WHERE ${servers} AND ${user} AND (${reached.join(' OR ')})
      ) AS reached WHERE EXISTS (SELECT 1 FROM playback_history h WHERE h.id = reached.id AND ${checks.join(' AND ')})`;
}

/** Reaches whose index carries each play's user and id (history_item_started, history_series_started: 0040). */
const USER_KEYED_REACHES = new Set(['item_id', 'series_id']);
/** Index entries that one key's descent into its index is taken to cost. */
const KEY_DESCENT_ENTRIES = 10;

/** Whether every candidate key's plays are found, with their user and id, in an index of their own. */
export function userKeyedReaches(plan: SearchPlan): boolean {
  const candidates = plan.candidates;
  return candidates !== undefined && candidates.length > 0 && candidates.every(({ reach }) => USER_KEYED_REACHES.has(reach));
}

/**
 * Whether a rare word within one user reads its candidates' index entries (userKeyedIds) rather than every entry
 * of the user's index: both are index entries, so the fewer wins, a key's descent counted as KEY_DESCENT_ENTRIES.
 */
export function userKeyedCheaper(plan: SearchPlan, userPlays: number): boolean {
  if (!userKeyedReaches(plan)) return false;
  const keys = plan.candidates!.reduce((sum, { keys }) => sum + keys.length, 0);
  return plan.candidatePlays + KEY_DESCENT_ENTRIES * keys <= userPlays;
}

/**
 * The ids of one user's plays (no other filter) reached by the candidate keys, from the keys' own indexes alone
 * (their entries carry the user and the id, migration 0040): the server's plays of each key are read as index
 * entries and the user's kept (a play reached by an item and a series key twice: userKeyedRows reads the ids as
 * a list, each row once). The keys reach SQL as a value the planner does not look into (estimating each of 367 keys took 5 ms of planning at 5 M plays).
 * `selection` is the walk's (server, user, the search's check); its bind is extended, its check left to the caller.
 */
function userKeyedIds(candidates: NonNullable<SearchPlan['candidates']>, selection: HistorySelection): string {
  const [servers, user] = selection.where;
  return candidates
    .map(({ reach, keys }) => {
      selection.bind.push(keys);
      return `SELECT id FROM playback_history WHERE ${servers} AND ${reach} = ANY(ARRAY(SELECT unnest($${selection.bind.length}::text[]))) AND ${user}`;
    })
    .join(' UNION ALL ');
}

/**
 * The user's plays reached by the candidates (userKeyedIds), read by id and checked: `selection` is the walk's
 * (server, user, the search's check), its bind extended.
 */
export function userKeyedRows(candidates: NonNullable<SearchPlan['candidates']>, selection: HistorySelection, columns: string): string {
  const ids = userKeyedIds(candidates, selection);
  return `SELECT ${columns} FROM playback_history WHERE id = ANY(ARRAY(${ids})) AND ${selection.where.join(' AND ')}`;
}

/** Keys whose plays an index gives in start order (history_user_cover, history_item_started, history_series_started). */
const DATED_REACHES = new Set(['user_id', 'item_id', 'series_id']);
/** Above this many keys, one index descent per key costs more than reading the candidates. */
const DATED_KEYS = 1_000;

/** Whether a keyed page in date order is read key by key (each key's plays newest or oldest first). */
export function datedKeys(plan: SearchPlan | undefined, request: HistoryRequest): plan is SearchPlan {
  const candidates = plan?.candidates;
  return (
    request.sort === 'ActivityDateInserted' &&
    candidates !== undefined &&
    candidates.length > 0 &&
    candidates.every(({ reach }) => DATED_REACHES.has(reach)) &&
    candidates.reduce((sum, { keys }) => sum + keys.length, 0) <= DATED_KEYS
  );
}

/**
 * The page's ids in date order from each candidate key's first offset + size matches (an index walk that stops
 * there), merged: a rare word's page reads at most that many plays per key instead of every candidate. A play
 * reached by two keys counts once. `selection` is the walk's (scope, filters, check), its bind extended here.
 */
export function datedKeysPage(
  candidates: NonNullable<SearchPlan['candidates']>,
  selection: HistorySelection,
  request: HistoryRequest,
  offset: number,
) {
  const direction = request.desc ? 'DESC' : 'ASC';
  const first = offset + request.size;
  const arms = candidates.map(({ reach, keys }) => {
    selection.bind.push(keys);
    return `SELECT x.id, x.started_at FROM unnest($${selection.bind.length}::text[]) AS k(key) CROSS JOIN LATERAL (
          SELECT id, started_at FROM playback_history WHERE ${selection.where.join(' AND ')} AND ${reach} = k.key
          ORDER BY started_at ${direction}, id ${direction} LIMIT ${first}
        ) AS x`;
  });
  return `WITH page AS (
      SELECT id FROM (SELECT DISTINCT id, started_at FROM (${arms.join(' UNION ALL ')}) AS reached) AS merged
      ORDER BY started_at ${direction}, id ${direction} LIMIT ${request.size} OFFSET ${offset}
    )`;
}

type PagePlan = NonNullable<SearchTuning['page']>;

/**
 * How a search's page is read: a walk in the page's order checking every play; the candidates read by key,
 * checked and sorted (keyed); in date order key by key (datedKeys); or a walk of the date index that keeps the
 * candidates' plays by their keys in the index and checks only those it keeps (datedWalk). The cheapest by the
 * estimates (search-plan.ts), or `forced` when it can serve the request.
 */
export function choosePage(
  plan: SearchPlan | undefined,
  serverId: string | string[],
  request: HistoryRequest,
  whole: boolean,
  forced: PagePlan | undefined,
  /** Whether the server walks an index in order with an array condition inside it (orderedArrayScans). */
  orderedArrays: boolean,
): PagePlan {
  const candidates = plan?.candidates;
  if (!plan || !candidates) return 'walk';
  const rows = (request.page - 1) * request.size + request.size;
  const possible: Record<PagePlan, boolean> = {
    walk: true,
    keyed: true,
    datedKeys: datedKeys(plan, request),
    datedWalk: datedWalk(plan, serverId, request, whole),
    sortWalk: sortWalk(plan, serverId, request, whole),
  };
  if (forced && possible[forced]) return forced;
  if (possible.sortWalk && orderedArrays && keyedPage(plan, rows, whole) && sortWalkCost(plan, rows) < plan.candidatePlays) {
    return 'sortWalk';
  }
  if (possible.datedWalk) {
    const keys = candidates.reduce((sum, { keys }) => sum + keys.length, 0);
    const keyedRows = possible.datedKeys ? Math.min(keys * rows, plan.candidatePlays) : plan.candidatePlays;
    if (datedWalkCost(plan, rows) < Math.min(keyedRows, walkCost(plan, rows))) return 'datedWalk';
  }
  if (!keyedPage(plan, rows, whole)) return 'walk';
  return possible.datedKeys ? 'datedKeys' : 'keyed';
}

/**
 * Reaches whose keys the date index's walk can test without reading the table: history_started_cover carries
 * the user, item and series ids; an address's plays are found, by id, in the address index alone.
 */
const WALKED_REACHES = new Set(['user_id', 'item_id', 'series_id', 'remote_end_point']);

/** Whether a page may be a walk of the date index keeping the candidates' plays (one server, no scope or filter). */
function datedWalk(plan: SearchPlan, serverId: string | string[], request: HistoryRequest, whole: boolean): boolean {
  const candidates = plan.candidates;
  return (
    whole &&
    !Array.isArray(serverId) &&
    request.sort === 'ActivityDateInserted' &&
    plan.atLeast > 0 &&
    candidates !== undefined &&
    candidates.length > 0 &&
    candidates.every(({ reach }) => WALKED_REACHES.has(reach))
  );
}

/**
 * The page's ids from a walk of history_started_cover in date order (index only: the user, item and series ids
 * are in it) that keeps the plays of the candidate keys, each kept play then checked in the table: a word in a
 * few thousand plays spread over hundreds of titles, or one address, reads about 25 plays from the table instead
 * of every candidate. `selection` is the walk's (the server and the check), its bind extended here.
 */
export function datedWalkPage(
  candidates: NonNullable<SearchPlan['candidates']>,
  selection: HistorySelection,
  request: HistoryRequest,
  offset: number,
) {
  const direction = request.desc ? 'DESC' : 'ASC';
  const [server, ...checks] = selection.where;
  const kept = candidates.map(({ reach, keys }) => {
    selection.bind.push(keys);
    const keysParam = `$${selection.bind.length}::text[]`;
    // The address index holds (server, address, id): the address's plays by id, without the table.
    return reach === 'remote_end_point'
      ? `id IN (SELECT id FROM playback_history WHERE ${server} AND remote_end_point = ANY(${keysParam}))`
      : `${reach} = ANY(${keysParam})`;
  });
  // As a CASE the condition is estimated to keep half the rows: the planner walks the date index and stops.
  return `WITH page AS (
      SELECT walked.id FROM (
        SELECT id, started_at FROM playback_history
        WHERE ${server} AND CASE WHEN ${kept.join(' OR ')} THEN true ELSE false END
        ORDER BY started_at ${direction}, id ${direction}
      ) AS walked CROSS JOIN LATERAL (
        SELECT 1 FROM playback_history WHERE id = walked.id AND ${checks.join(' AND ')}
      ) AS checked
      ORDER BY walked.started_at ${direction}, walked.id ${direction} LIMIT ${request.size} OFFSET ${offset}
    )`;
}

/**
 * A word without a space lies inside one field of every play it matches (the text joins the fields with single
 * spaces), so when the dictionary's values containing it were all read by the plan (its one pattern complete: at
 * most LOOKUP_TERMS values), "the play's text contains the word" is "one of the play's fields is one of those
 * values": one hashed comparison per field that holds such a value, instead of lowering the joined text of every
 * play and matching it. A count that walks a scope checks tens of thousands of plays (docs/performance.md,
 * "Search within a user or a library"). Undefined when that does not hold.
 */
export async function fieldValuesCheck(
  db: Database,
  servers: string[],
  plan: SearchPlan,
  word: string,
): Promise<{ byField: Map<string, string[]>; check: (bind: unknown[]) => string } | undefined> {
  if (word.includes(' ') || plan.family?.length !== 1 || !plan.familyComplete) return undefined;
  const found = await db.query<{ kind: SearchTermKind; values: string[] }>(
    `SELECT kind, array_agg(value) AS values FROM history_search_values
     WHERE server_id = ANY($1::uuid[]) AND lower(value) LIKE lower($2) AND plays > 0 GROUP BY kind`,
    [servers, containsPattern(word)],
  );
  // The values per compared column: the series kinds (with and without a series id) compare the same column,
  // so their values are merged.
  const byField = new Map<string, string[]>();
  for (const { kind, values } of found) {
    const field = SEARCH_TERM_KINDS[kind].value;
    byField.set(field, [...(byField.get(field) ?? []), ...values]);
  }
  return {
    byField,
    check: (bind) => {
      const fields = [...byField].map(([field, values]) => {
        bind.push(values);
        return `${field} = ANY($${bind.length}::text[])`;
      });
      // As a CASE, like the walk's check: estimated to keep half the rows, so the planner does not pick an index
      // for a condition it would think rare.
      return fields.length > 0 ? `CASE WHEN ${fields.join(' OR ')} THEN true ELSE false END` : 'false';
    },
  };
}

/**
 * Orders whose index (history_sort_*: server, the sort's expression, id) a page can walk. Not the user's name: a
 * rare user's plays lie together in that order, wherever it is, so the walk could pass most of the index first.
 */
const SORT_WALKS = new Set<HistorySort>(['NowPlayingItemName', 'Client', 'DeviceName', 'RemoteEndPoint', 'PlayMethod', 'PlaybackDuration']);

/** Whether a page in another order than the date may walk that order's index keeping the candidates' ids (sortWalkIds). */
function sortWalk(plan: SearchPlan, serverId: string | string[], request: HistoryRequest, whole: boolean): boolean {
  const candidates = plan.candidates;
  return (
    whole &&
    !Array.isArray(serverId) &&
    SORT_WALKS.has(request.sort) &&
    plan.atLeast > 0 &&
    candidates !== undefined &&
    candidates.length > 0 &&
    candidates.every(({ reach }) => reach === 'user_id')
  );
}

/**
 * A walk of the order's index in keyed rows: the entries walked to pass `rows` surely matching plays (at their
 * share of all plays), INDEX_ENTRIES_PER_ROW to a keyed row since the ids are compared in the index, plus the
 * rows read from the table. A keyed page reads every candidate instead (9,650 for a rare user at 5 M plays).
 */
const sortWalkCost = (plan: SearchPlan, rows: number) => (rows * plan.plays) / plan.atLeast / INDEX_ENTRIES_PER_ROW + rows;

/**
 * Whether the server compares an index's entries with an array (`id = ANY(…)`) while walking the index in its
 * order: PostgreSQL 17 and later. Before 17 an array condition on a column after the first makes the scan one
 * descent per element, so for an ordered walk the planner checks it on each entry's table row instead: the
 * sortWalk then reads a row per entry passed (30,700 rows, 1.46–1.50 s for a rare user's title page at 5 M plays
 * on PostgreSQL 15: docs/performance.md, "A rare user sorted by title") and always ran into its timeout. Asked
 * once per Database.
 */
export function orderedArrayScans(db: Database): Promise<boolean> {
  let known = ORDERED_ARRAY_SCANS.get(db);
  if (!known) {
    known = db
      .query<{ version: number }>(`SELECT current_setting('server_version_num')::int AS version`)
      .then(([row]) => (row?.version ?? 0) >= 170_000);
    // A failed question is asked again by the next search, not remembered.
    known.catch(() => ORDERED_ARRAY_SCANS.delete(db));
    ORDERED_ARRAY_SCANS.set(db, known);
  }
  return known;
}
const ORDERED_ARRAY_SCANS = new WeakMap<Database, Promise<boolean>>();

/**
 * The longest a walk of an order's index may take before the page falls back to reading the candidates. The
 * estimate supposes the candidates spread over the order; a user who watched only titles at its far end makes
 * the walk pass most of the index (about a second at 5 M plays) where the candidates take 50–250 ms.
 */
export const SORT_WALK_TIMEOUT_MS = 100;

/**
 * The page's ids read by walking the order's index (history_sort_title for titles) and keeping the entries whose
 * id is one of the candidates' (the user's plays, listed from history_user_cover alone): the ids are compared in
 * the index (a sorted array), so only the plays kept are read from the table and checked, about a page of them,
 * instead of every candidate read and sorted. The planner, told the array holds few ids, would read them by
 * primary key and sort them: sorting is turned off for this one statement, which leaves the walk. Undefined when
 * the walk took longer than SORT_WALK_TIMEOUT_MS (see there). `selection` is the walk's (server and check).
 */
export async function sortWalkIds(
  db: Database,
  candidates: NonNullable<SearchPlan['candidates']>,
  selection: HistorySelection,
  order: string,
  size: number,
  offset: number,
): Promise<number[] | undefined> {
  const [server, ...checks] = selection.where;
  const bind = [...selection.bind];
  const reached = candidates.map(({ reach, keys }) => {
    bind.push(keys);
    return `${reach} = ANY($${bind.length}::text[])`;
  });
  const sql = `SELECT id FROM playback_history
    WHERE ${server} AND id = ANY(ARRAY(SELECT id FROM playback_history WHERE ${server} AND (${reached.join(' OR ')})))
      AND ${checks.join(' AND ')}
    ORDER BY ${order} LIMIT ${size} OFFSET ${offset}`;
  try {
    return await db.sequelize.transaction(async (transaction) => {
      await db.query(`SET LOCAL enable_sort = off`, [], transaction);
      await db.query(`SET LOCAL statement_timeout = ${SORT_WALK_TIMEOUT_MS}`, [], transaction);
      const rows = await db.query<{ id: number }>(sql, bind, transaction);
      return rows.map((row) => Number(row.id));
    });
  } catch (error) {
    // 57014: canceled by the statement timeout.
    if ((error as { parent?: { code?: string } }).parent?.code === '57014') return undefined;
    throw error;
  }
}
