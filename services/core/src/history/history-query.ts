import type { Database } from '../db/database.js';
import type { PlaybackRecordShape } from '@reelstat/contract';
import { HISTORY_SEARCH_TEXT } from './rollup-sql.js';
import { historyJsonColumns } from './json-values.js';
import { historyStreams } from './history-streams.js';
import { userIndexCount, type UserCountScope } from './user-search-count.js';
import { libraryValuesCount } from './library-search-count.js';
import {
  CANDIDATE_READ_COST,
  choosePage,
  coveredKeys,
  datedKeysPage,
  datedWalkPage,
  fieldValuesCheck,
  orderedArrayScans,
  sortWalkIds,
  userCoverRows,
  userKeyedCheaper,
  userKeyedReaches,
  userKeyedRows,
} from './search-pages.js';
import {
  baseCountRows,
  containsPattern,
  familyKeyedRows,
  KEYED_PLAYS,
  keyedPage,
  planSearch,
  type Query,
  type SearchPlan,
} from './search-plan.js';

/**
 * Paged playback history (SPEC.md §3 Paged result, §7 getHistory and friends). Sort columns and filter fields
 * come from allow-lists; every value reaches SQL as a bound parameter.
 */
export const HISTORY_SORTS = {
  ActivityDateInserted: 'started_at',
  UserName: 'lower(user_name)',
  RemoteEndPoint: 'remote_end_point',
  NowPlayingItemName: `lower(COALESCE(series_name, item_name))`,
  Client: 'lower(client)',
  PlayMethod: 'play_method',
  DeviceName: 'lower(device_name)',
  PlaybackDuration: 'played_seconds',
} as const;
export type HistorySort = keyof typeof HISTORY_SORTS;
export const HISTORY_PAGE_SIZES = [10, 25, 50, 100] as const;

export type HistoryScope = { kind: 'all' } | { kind: 'user' | 'library' | 'item'; id: string };

/** Filters as the dashboard sends them (JSON text), already validated by the contract schema. */
export interface HistoryFilters {
  playMethods?: string[];
  libraryIds?: string[];
  userIds?: string[];
  from?: Date;
  to?: Date;
}

export interface HistoryRequest {
  scope: HistoryScope;
  page: number;
  size: number;
  search: string;
  sort: HistorySort;
  desc: boolean;
  filters: HistoryFilters;
}

export interface HistoryRow {
  id: number;
  user_id: string;
  user_name: string;
  remote_end_point: string | null;
  series_id: string | null;
  series_name: string | null;
  season_number: number | null;
  episode_number: number | null;
  item_id: string;
  item_name: string;
  client: string | null;
  play_method: string;
  device_name: string | null;
  started_at: Date;
  played_seconds: number;
  transcoding_info: unknown;
  stream_details: unknown;
  library_id: string | null;
}

/** SPEC.md §3 Playback activity record, as the contract describes it. */
export type PlaybackRecord = PlaybackRecordShape;

export function toRecord(row: HistoryRow): PlaybackRecord {
  return {
    Id: row.id,
    UserName: row.user_name,
    UserId: row.user_id,
    RemoteEndPoint: row.remote_end_point,
    SeriesName: row.series_name,
    SeasonNumber: row.season_number,
    EpisodeNumber: row.episode_number,
    NowPlayingItemName: row.item_name,
    NowPlayingItemId: row.series_id ?? row.item_id,
    EpisodeId: row.series_id ? row.item_id : null,
    Client: row.client,
    PlayMethod: row.play_method,
    DeviceName: row.device_name,
    ActivityDateInserted: new Date(row.started_at).toISOString(),
    PlaybackDuration: row.played_seconds,
    TotalPlays: 1,
    TranscodingInfo: row.transcoding_info ?? null,
    ...historyStreams(row.stream_details, { playMethod: row.play_method, transcodingInfo: row.transcoding_info }),
    ParentId: row.library_id,
    results: [],
  };
}

/**
 * Folds plays that follow each other on the page and share user and item into one row: its TotalPlays and
 * PlaybackDuration are the sums and `results` holds the plays (the expandable sub-rows). A page therefore
 * shows at most `size` plays.
 */
export function foldConsecutive(records: PlaybackRecord[]): PlaybackRecord[] {
  const folded: PlaybackRecord[] = [];
  for (const record of records) {
    const previous = folded[folded.length - 1];
    if (
      previous &&
      previous.UserId === record.UserId &&
      previous.EpisodeId === record.EpisodeId &&
      previous.NowPlayingItemId === record.NowPlayingItemId
    ) {
      if (previous.results.length === 0) previous.results.push({ ...previous, results: [] });
      previous.results.push(record);
      previous.TotalPlays += 1;
      previous.PlaybackDuration += record.PlaybackDuration;
    } else {
      folded.push(record);
    }
  }
  return folded;
}

/** The WHERE conditions (and their bound values) of a history view: the page, its count and the CSV export share them. */
export interface HistorySelection {
  where: string[];
  bind: unknown[];
  /** Whether a filter or search narrows the scope (then counts cannot come from play_totals). */
  filtered: boolean;
}

/**
 * Which plays a view shows: one server (the SQL catalog's statement) or several, the scope, filters and search.
 * With a search plan whose word is rare, only the plays of its candidate keys are read (search-plan.ts).
 */
export function selectHistory(
  serverId: string | string[],
  request: Pick<HistoryRequest, 'scope' | 'filters' | 'search'>,
  plan?: SearchPlan,
): HistorySelection {
  const bind: unknown[] = [serverId];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  // One server keeps the statement of the SQL catalog; several compare against the list.
  const where: string[] = [Array.isArray(serverId) ? 'server_id = ANY($1::uuid[])' : 'server_id = $1'];
  const { scope, filters } = request;
  if (scope.kind === 'user') where.push(`user_id = ${param(scope.id)}`);
  if (scope.kind === 'library') where.push(`library_id = ${param(scope.id)}`);
  if (scope.kind === 'item') {
    const id = param(scope.id);
    where.push(`(item_id = ${id} OR series_id = ${id} OR season_id = ${id})`);
  }
  if (filters.playMethods?.length) {
    // Emby's DirectPlay is already stored as DirectStream (SPEC.md §3; writeHistory applies the rule).
    where.push(`play_method = ANY(${param(filters.playMethods)}::text[])`);
  }
  if (filters.libraryIds?.length) where.push(`library_id = ANY(${param(filters.libraryIds)}::text[])`);
  if (filters.userIds?.length) where.push(`user_id = ANY(${param(filters.userIds)}::text[])`);
  if (filters.from) where.push(`started_at >= ${param(filters.from.toISOString())}`);
  if (filters.to) where.push(`started_at <= ${param(filters.to.toISOString())}`);
  // Lower-cased by PostgreSQL like the text it is compared with, so both fold the same letters in any database
  // locale (a C locale folds only ASCII: JavaScript's toLowerCase would fold an É the text keeps).
  const search = request.search.trim();
  if (search) {
    const { candidates } = plan ?? {};
    if (candidates) {
      // A long list is given to the plan as a value it does not look into: estimating each key against the
      // column's statistics took longer than the read (12 ms of planning for 3,600 keys at 100 k plays).
      const reached = candidates.map(({ reach, keys }) =>
        keys.length > ESTIMATED_KEYS ? `${reach} = ANY((SELECT ${param(keys)}::text[])::text[])` : `${reach} = ANY(${param(keys)}::text[])`,
      );
      where.push(reached.length > 0 ? `(${reached.join(' OR ')})` : 'false');
    }
    const matches = `${HISTORY_SEARCH_TEXT} LIKE lower(${param(containsPattern(search))})`;
    // A common word walks the history in the page's order. As a CASE the check is estimated to keep half the
    // rows, so the planner walks the order's index instead of sorting every play of a word it thinks rare.
    where.push(plan && !candidates ? `CASE WHEN ${matches} THEN true ELSE false END` : matches);
  }
  return { where, bind, filtered: where.length > 1 + (scope.kind === 'all' ? 0 : 1) };
}

/** Keys of a reach up to which the planner estimates the candidates key by key (selectHistory). */
const ESTIMATED_KEYS = 100;

/** The search plan of a request (undefined without a search): which plays to read, and a bound of the count. */
export async function planHistorySearch(
  query: Query,
  serverId: string | string[],
  request: Pick<HistoryRequest, 'search'>,
  wantKeys?: (plan: SearchPlan) => boolean,
  limit?: number,
): Promise<SearchPlan | undefined> {
  const search = request.search.trim();
  return search ? planSearch(query, Array.isArray(serverId) ? serverId : [serverId], search, wantKeys, limit) : undefined;
}

/** ORDER BY of a view: the sort column, then the id, in one direction. */
export function historyOrder(sort: HistorySort, desc: boolean): string {
  // Default null ordering (nulls last ascending, first descending) so that one index serves both directions.
  const direction = desc ? 'DESC' : 'ASC';
  return `${HISTORY_SORTS[sort]} ${direction}, id ${direction}`;
}

/**
 * Where a filtered count may be kept: every page of one search has the same count, and counting the matches
 * of a common word is the slowest part of the page (HistoryService keys it by the history's version).
 */
export type CountCache = <Count extends { total: number; exact: boolean } | null>(
  query: unknown,
  count: () => Promise<Count>,
) => Promise<Count>;

/** Overrides of the search's choices, for tests that take every path on a small history. */
export interface SearchTuning {
  /** Values read per pattern in the first look-up (LOOKUP_TERMS). */
  lookupTerms?: number;
  /** The page's plan instead of the cheapest by the estimates (one that cannot serve the request is not taken). */
  page?: 'walk' | 'keyed' | 'datedKeys' | 'datedWalk' | 'sortWalk';
  /** A user with at most this many plays is searched by walking them, without a plan (WALKED_USER_PLAYS). */
  walkedUserPlays?: number;
  /** False: a search within a user is not counted beside the plan's look-up (earlyUserCount), only after it. */
  earlyCount?: boolean;
  /** False: a user's index count reads the word's terms in the counting statement (user-search-count.ts generalCount). */
  keysAsValues?: boolean;
  /** Users with at least this many plays are counted in two halves (user-search-count.ts HALVED_USER_PLAYS). */
  halvedUserPlays?: number;
  /**
   * A rare word within a user: its candidates' index entries read for the user's plays (search-pages.ts
   * userKeyedIds) `always` when their indexes carry them, or `never`; by default when that reads fewer entries.
   */
  userKeys?: 'always' | 'never';
}

/**
 * A search within a user of at most this many plays walks them with the check and looks nothing up: reading and
 * checking 2,000 plays (about 2–3 ms) costs what the dictionary's look-up alone does (100 k plays: user-3's 1,349
 * plays and `storm`, look-up 3.3 ms, then the same walk), and no plan can read fewer.
 */
export const WALKED_USER_PLAYS = 2_000;
/** The plan of a word for which nothing is looked up: the history is walked with the check. */
const WALK_PLAN: SearchPlan = { atLeast: 0, exact: false, candidatePlays: Infinity, plays: Infinity };

/** One server's history, or with a list of server ids the history of all of them ("All servers"). */
export async function queryHistory(
  db: Database,
  serverId: string | string[],
  request: HistoryRequest,
  countCache?: CountCache,
  tuning: SearchTuning = {},
) {
  const { scope } = request;
  const query: Query = (sql, bind) => db.query(sql, bind);
  // Without scope or filter, the dictionary may know the count of a search already (search-plan.ts).
  // No filter but the scope and the search (the whole history, or a user's plays, searched).
  const unfiltered = !selectHistory(serverId, { ...request, search: '' }).filtered;
  const whole = scope.kind === 'all' && unfiltered;
  const offset = (request.page - 1) * request.size;
  // The candidates' keys are read when the page or the count reads them.
  const wantKeys = (plan: SearchPlan) => keyedPage(plan, offset + request.size, whole) || !(whole && knownCount(plan));
  // A search within a user needs the user's plays: a small user is walked without a plan, a larger one's plays
  // choose among the covering index's plans.
  const scopePlays = scope.kind === 'user' && request.search.trim() ? countFromTotals(db, serverId, scope) : undefined;
  const walked = scopePlays !== undefined && (await scopePlays) <= (tuning.walkedUserPlays ?? WALKED_USER_PLAYS);
  const early =
    scopePlays !== undefined && !walked && unfiltered && tuning.earlyCount !== false
      ? earlyUserCount(
          query,
          serverId,
          request as HistoryRequest & { scope: { kind: 'user'; id: string } },
          await scopePlays,
          countCache,
          tuning,
        )
      : undefined;
  const searched = walked ? WALK_PLAN : await planHistorySearch(query, serverId, request, wantKeys, tuning.lookupTerms);
  const servers = Array.isArray(serverId) ? serverId : [serverId];
  const known = searched && whole ? knownCount(searched) : undefined;
  // The page and the count each read the candidates or walk, whichever reads fewer plays (search-plan.ts).
  const walk = searched && { ...searched, candidates: undefined };
  const { where, bind, filtered } = selectHistory(serverId, request, searched);
  const order = historyOrder(request.sort, request.desc);
  // Only a page that could walk an order's index asks the server's version (once per Database).
  const orderedArrays = searched?.candidates && request.sort !== 'ActivityDateInserted' ? await orderedArrayScans(db) : true;
  const pagePlan = choosePage(searched, serverId, request, whole, tuning.page, orderedArrays);
  const byUser = searched && scope.kind === 'user' && unfiltered;
  // A rare word within a user whose candidates are users, items or series (all in history_user_cover): the
  // user's index entries are filtered by key without table reads, and only the user's candidates are checked,
  // when that costs less than reading every candidate of the server (CANDIDATE_READ_COST).
  const covered = byUser && pagePlan !== 'walk' && coveredKeys(searched);
  const userPlays = covered ? await (scopePlays ?? countFromTotals(db, serverId, scope)) : undefined;
  // Fewer candidate plays than the user has: the user's candidates are found in the keys' own indexes, which
  // carry each play's user and id (0040), and only they are read, checked and sorted, for the page and the count.
  const userKeyed =
    covered &&
    userPlays !== undefined &&
    tuning.userKeys !== 'never' &&
    (tuning.userKeys === 'always' ? userKeyedReaches(searched) : userKeyedCheaper(searched, userPlays));
  const coverWalk = covered && !userKeyed && userPlays !== undefined && userPlays <= CANDIDATE_READ_COST * searched.candidatePlays;
  // The page in start order walks the user's index (unless a test forces another plan); other orders read the candidates.
  const coverPage = coverWalk && request.sort === 'ActivityDateInserted' && tuning.page === undefined;
  const userKeyedPage = userKeyed && tuning.page === undefined;
  // A page in another order walks that order's index keeping the candidates' ids, unless it took too long.
  const walkedIds =
    pagePlan === 'sortWalk' && !userKeyedPage
      ? await sortWalkIds(db, searched!.candidates!, selectHistory(serverId, request, walk), order, request.size, offset)
      : undefined;
  const keyed = (pagePlan === 'keyed' || (pagePlan === 'sortWalk' && !walkedIds)) && !coverPage && !userKeyedPage;
  const pageSelection = walkedIds
    ? { where: [], bind: [walkedIds], filtered: true }
    : selectHistory(serverId, request, keyed ? searched : walk);
  // Ids first, then rows: the offset is skipped inside an index or the candidates (no table reads for skipped plays).
  const page = walkedIds
    ? `WITH page AS (SELECT unnest($1::bigint[]) AS id)`
    : userKeyedPage
      ? `WITH page AS (
      ${userKeyedRows(searched.candidates!, pageSelection, 'id')}
      ORDER BY ${order} LIMIT ${request.size} OFFSET ${offset}
    )`
      : coverPage
        ? `WITH page AS (
      ${userCoverRows(searched.candidates!, pageSelection, 'id')}
      ORDER BY ${order} LIMIT ${request.size} OFFSET ${offset}
    )`
        : pagePlan === 'datedKeys'
          ? datedKeysPage(searched!.candidates!, pageSelection, request, offset)
          : pagePlan === 'datedWalk'
            ? datedWalkPage(searched!.candidates!, pageSelection, request, offset)
            : `WITH page AS (
      SELECT id FROM playback_history WHERE ${pageSelection.where.join(' AND ')} ORDER BY ${order} LIMIT ${request.size} OFFSET ${offset}
    )`;
  // A search within a user, no other filter, counts from the user's index what the dictionary shows to match
  // (user-search-count.ts) when a walk of the user's plays would read them all (the word is not dense enough to
  // reach the cap first), the user has more than twice as many plays as the word has terms (the dictionary's part
  // costs about that), and more plays than the word's candidates hold (a rare word's candidates are read and
  // checked). The user's plays, when it may be used (else undefined).
  const byUserIndex = async (plan: SearchPlan) => {
    const userPlays = await (scopePlays ?? countFromTotals(db, serverId, scope));
    if (plan.candidates && plan.candidatePlays <= userPlays) return undefined;
    if (plan.plays > 0 && (userPlays * plan.atLeast) / plan.plays > HISTORY_COUNT_CAP) return undefined;
    // The values read so far are a lower bound of the family's terms: a user with at most twice as many plays
    // walks at once (at 100 k plays user-3's 1,349 plays against storm's 3,600 values); the statement checks the
    // rest itself.
    if (userPlays <= 2 * (plan.familyTerms ?? 0)) return undefined;
    return userPlays;
  };
  // A whole history's count that the dictionary does not give and whose candidates were not read (a word of
  // thousands of values, each in a few plays: a title piece, digits) would walk the history up to the cap, every
  // play when the word matches fewer. When the plays of the values read so far allow it, a word without a space
  // is counted as its base field's plays from the dictionary plus the other fields' matches read by key
  // (search-plan.ts baseCountRows); another word's count reads the family's keys in the same statement and counts
  // their plays, checked (familyKeyedRows).
  const byFamily =
    searched && whole && !searched.candidates && searched.familyComplete === false && (searched.familyPlays ?? Infinity) <= KEYED_PLAYS
      ? searched
      : undefined;
  const count = async () => {
    const counted = await early;
    if (counted) return counted;
    if (userKeyed) {
      const selection = selectHistory(serverId, request, walk);
      return countRows(db, userKeyedRows(searched.candidates!, selection, '1'), selection.bind);
    }
    if (coverWalk) {
      const selection = selectHistory(serverId, request, walk);
      return countRows(db, userCoverRows(searched.candidates!, selection, '1'), selection.bind);
    }
    // The keyed count takes the check as is (a CASE would make the planner expect half the plays and scan them).
    const plain = byFamily ? selectHistory(serverId, request) : undefined;
    const countBind = [...(plain ?? { bind }).bind];
    const rows = plain
      ? (baseCountRows(byFamily!, request.search.trim(), countBind, servers, plain.where, HISTORY_COUNT_CAP) ??
        familyKeyedRows(byFamily!, countBind, servers, plain.where))
      : undefined;
    if (rows) return countRows(db, rows, countBind);
    const userPlays = byUser ? await byUserIndex(searched) : undefined;
    const byIndex =
      userPlays !== undefined
        ? await userIndexCount(query, searched!, request.search.trim(), userCountScope(servers, scope, { where, bind }, userPlays), {
            keysAsValues: tuning.keysAsValues,
            halvedUserPlays: tuning.halvedUserPlays,
          })
        : undefined;
    // NULL: the word has too many terms for the index's count; the user's plays are walked below.
    if (byIndex != null) return capped(byIndex);
    // A user's or a library's matches counted by walking the scope: the check by field values when it holds.
    const scoped = searched && !searched.candidates && (scope.kind === 'user' || scope.kind === 'library');
    const byValues = scoped ? await fieldValuesCheck(db, servers, searched, request.search.trim()) : undefined;
    if (byValues) {
      // Within a library, no other filter: a client's or a device's word counted from their totals (0039).
      const fromTotals =
        scope.kind === 'library' && unfiltered
          ? await libraryValuesCount(db, servers, scope.id, byValues.byField, HISTORY_COUNT_CAP)
          : undefined;
      if (fromTotals !== undefined) return capped(fromTotals);
      const selection = selectHistory(serverId, { ...request, search: '' });
      selection.where.push(byValues.check(selection.bind));
      return countRows(db, `SELECT 1 FROM playback_history WHERE ${selection.where.join(' AND ')}`, selection.bind);
    }
    return countRows(db, `SELECT 1 FROM playback_history WHERE ${where.join(' AND ')}`, bind);
  };
  const [rows, counted] = await Promise.all([
    db.query<HistoryRow>(
      `${page}
       SELECT id, user_id, user_name, remote_end_point, series_id, series_name, season_number, episode_number, item_id, item_name,
         client, play_method, device_name, started_at, played_seconds, library_id,
         -- Stored once per distinct value (migration 0022): a page resolves its few dozen ids by primary key.
         ${historyJsonColumns('h')}
       FROM playback_history h WHERE id IN (SELECT id FROM page)
       ORDER BY ${order}`,
      pageSelection.bind,
    ),
    known
      ? Promise.resolve(known)
      : filtered
        ? countCache
          ? countCache({ where, bind }, count)
          : count()
        : countFromTotals(db, serverId, scope).then((total) => ({ total, exact: true })),
  ]);
  const { total, exact } = counted;
  return {
    results: foldConsecutive(rows.map((row) => toRecord(row))),
    total,
    total_exact: exact,
    pages: Math.max(1, Math.ceil(total / request.size)),
  };
}

/**
 * The count of a search within a user (the caller checks there is no other filter) for a word without a space,
 * started beside the plan's look-up: the word's one family is the word itself, so the user's index count
 * (user-search-count.ts) needs no plan, and the look-up's 4–5 ms at 5 M plays no longer come before it. Every kind the index carries is tested
 * (the plan would name only those the word's values are of); the statement gives NULL when the word has a
 * value of another kind (a client, device, address: the plan may walk the user's plays more cheaply) or too many
 * terms, and the count is then taken after the plan as before. Undefined (nothing sent) for a word with a space.
 */
function earlyUserCount(
  query: Query,
  serverId: string | string[],
  request: HistoryRequest & { scope: { kind: 'user'; id: string } },
  userPlays: number,
  countCache: CountCache | undefined,
  tuning: SearchTuning,
): Promise<{ total: number; exact: boolean } | null> | undefined {
  const word = request.search.trim();
  if (word.includes(' ')) return undefined;
  const walk = selectHistory(serverId, request, WALK_PLAN);
  const pattern = containsPattern(word);
  const family = [{ column: 'lower(v.value)', like: pattern, pattern }];
  const servers = Array.isArray(serverId) ? serverId : [serverId];
  const count = async () => {
    const counted = await userIndexCount(query, { ...WALK_PLAN, family }, word, userCountScope(servers, request.scope, walk, userPlays), {
      untestedKinds: 'none',
      keysAsValues: tuning.keysAsValues,
      halvedUserPlays: tuning.halvedUserPlays,
    });
    return counted == null ? null : capped(counted);
  };
  // The count depends on the word, the user, the servers and the user's plays (the limits on the word's terms).
  const key = { early: word, user: request.scope.id, servers, userPlays, tuning };
  const counted = countCache ? countCache(key, count) : count();
  // Awaited only by the count; a failure surfaces there, never as an unhandled rejection before it.
  counted.catch(() => undefined);
  return counted;
}

/**
 * What a user's index count needs (user-search-count.ts): the user, and the walk's selection of their plays
 * (selectHistory: `where[0]` the servers, `$2` the user, the rest the search's check).
 */
function userCountScope(
  serverIds: string[],
  scope: HistoryScope,
  walk: { where: string[]; bind: unknown[] },
  userPlays: number,
): UserCountScope {
  return {
    serverIds,
    userId: (scope as { id: string }).id,
    walk: { servers: walk.where[0]!, user: '$2', where: walk.where, bind: walk.bind },
    userPlays,
    cap: HISTORY_COUNT_CAP,
  };
}

/** The count of a search over a whole history when the dictionary gives it: exact, or surely above the cap. */
function knownCount(plan: SearchPlan): { total: number; exact: boolean } | undefined {
  if (plan.atLeast > HISTORY_COUNT_CAP) return { total: HISTORY_COUNT_CAP, exact: false };
  if (plan.exact) return { total: plan.atLeast, exact: true };
  if (plan.candidates?.length === 0) return { total: 0, exact: true };
  return undefined;
}

/**
 * Searched or filtered pages count their matches up to a cap: exact below it, "at least" above it (`exact`
 * false), so a search matching a million plays still answers at once. Unfiltered counts are always exact.
 */
export const HISTORY_COUNT_CAP = 10_000;

/** A count taken up to the cap + 1: the total shown, and whether it is exact. */
const capped = (count: number) => ({ total: Math.min(count, HISTORY_COUNT_CAP), exact: count <= HISTORY_COUNT_CAP });

/** Counts `rows` (a SELECT of the matching plays, one row each) up to the cap. */
async function countRows(db: Database, rows: string, bind: unknown[]): Promise<{ total: number; exact: boolean }> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (${rows} LIMIT ${HISTORY_COUNT_CAP + 1}) AS hits`,
    bind,
  );
  const count = row?.count ?? 0;
  return capped(count);
}

/** Unfiltered counts come from play_totals (exact, kept with every write) instead of counting millions of rows. */
async function countFromTotals(db: Database, serverId: string | string[], scope: HistoryScope): Promise<number> {
  if (Array.isArray(serverId)) {
    const counts = await Promise.all(serverId.map((id) => countFromTotals(db, id, scope)));
    return counts.reduce((sum, count) => sum + count, 0);
  }
  if (scope.kind === 'all') {
    const [row] = await db.query<{ count: number }>(
      `SELECT COALESCE(sum(plays), 0)::int AS count FROM play_totals WHERE server_id = $1 AND scope = 'user'`,
      [serverId],
    );
    return row?.count ?? 0;
  }
  const [row] = await db.query<{ count: number }>(
    `SELECT plays AS count FROM play_totals WHERE server_id = $1 AND scope = $2 AND key = $3`,
    [serverId, scope.kind, scope.id],
  );
  return Math.max(0, row?.count ?? 0);
}
