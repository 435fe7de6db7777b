import { SEARCH_TERM_KINDS, type SearchTermKind } from './search-terms.js';

/**
 * How a history search finds its plays (docs/performance.md "History search by dictionary"). A play matches
 * when the lower-cased text HISTORY_SEARCH_TEXT (its fields joined by single spaces) contains the lower-cased
 * word W. The dictionary (history_search_terms) holds every field value with the key that reaches its plays, so
 * a set of value patterns whose plays hold every match gives the candidates, and the text is checked on them.
 * Three such sets ("families"), of which the one whose values hold the fewest plays is used:
 *
 * - a space-free segment of W: it lies inside one field of every matching play (values containing it);
 * - W inside one field, or W crossing fields: then the field where the match starts ends with W up to one of
 *   W's spaces (values containing W, and values ending with each part of W before a space);
 * - the same with the field where the match ends, which starts with W after one of its spaces.
 *
 * The two last make a rare combination of common words ("iron ghost": no title ends with "iron") as rare as it
 * is. Plans:
 * - keyed: the family's values hold at most KEYED_PLAYS plays: those plays are read by key and checked;
 * - scan: the word is common: matches are dense, and the history is walked in the page's order with the check.
 *
 * The values' play counts also give the count of a search over a whole history when they can: every play of a
 * value containing W matches, and a kind's values are disjoint sets of plays (at least the largest kind's sum);
 * when no match can cross fields and one kind holds W, that sum is the exact count.
 */
export const KEYED_PLAYS = 20_000;
/** Values read per pattern: a pattern with more is common (a lower bound only, never a keyed plan). */
export const LOOKUP_TERMS = 1_000;
/**
 * A walk in the page's order reads about (offset + size) / density plays, each a random table read; the keyed
 * plan reads its candidates in table order. A walk row is taken to cost this many keyed rows.
 */
const WALK_ROW_COST = 3;
/**
 * Index entries walked (history_started_cover, index only: about 0.3–0.6 µs each at 5 M plays) per keyed row
 * (a table read: 1.5 µs in cache, 20 µs from disk).
 */
export const INDEX_ENTRIES_PER_ROW = 8;
/** Kinds with few values (a server's users, clients, devices, addresses), looked up apart from the titles. */
const SMALL_KINDS: SearchTermKind[] = ['user', 'client', 'device', 'address'];
/** pg_trgm indexes three-character pieces: a shorter pattern would read the whole dictionary. */
const SHORTEST_PIECE = 3;

export interface SearchPlan {
  /** Keys whose plays hold every match (a keyed plan), by the condition that reaches them; absent: scan. */
  candidates?: Array<{ reach: string; keys: string[] }>;
  /** Plays of the server(s) that surely match, and whether that is the exact number (no scope or filter). */
  atLeast: number;
  exact: boolean;
  /** Plays a keyed plan reads (an upper bound of the matches; Infinity: none is possible), all plays of the server(s). */
  candidatePlays: number;
  plays: number;
  /**
   * The value patterns of the family whose values hold the fewest plays (read or not), each with the column it
   * is compared on: a scope reads that family's keys itself (scopeKeys) when the plan walks the history.
   */
  family?: Array<{ column: string; like: string; pattern: string }>;
  /** The values of that family, and whether that is all of them (a pattern's values are read up to LOOKUP_TERMS + 1). */
  familyTerms?: number;
  familyComplete?: boolean;
  /** The plays of that family's values read (all of them when it is complete, else a lower bound). */
  familyPlays?: number;
  /** The kinds that family's values may be of (all of them read or not). */
  familyKinds?: SearchTermKind[];
  /** The whole word's values read and their plays, per kind (lower bounds of a kind whose values were not all read). */
  wholeKinds?: Partial<Record<SearchTermKind, { terms: number; plays: number }>>;
}

/** Runs one statement (a Database, or an export's own connection in its snapshot). */
export type Query = (sql: string, bind: unknown[]) => Promise<unknown[]>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
/** The LIKE pattern that finds `text` anywhere, with `%`, `_` and `\` as plain characters. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

interface Found {
  /** Every value matching the pattern was read. */
  complete: boolean;
  /** Every value of the small kinds matching the pattern was read. */
  smallComplete: boolean;
  plays: number;
  kinds: Map<SearchTermKind, { terms: number; plays: number; values: string[] | null }>;
}

/** The plan of a search for the trimmed, non-empty `word` over the servers' histories. */
export async function planSearch(
  query: Query,
  serverIds: string[],
  word: string,
  /** Whether a keyed plan of these figures would be used: the keys are read only then. */
  wantKeys: (plan: SearchPlan) => boolean = () => true,
  /** Values read per pattern and part (LOOKUP_TERMS; KEYED_PLAYS to read a word's values whole for its count). */
  limit = LOOKUP_TERMS,
): Promise<SearchPlan> {
  // Each pattern is a condition on a value: contains, ends with (read backwards through the reversed values'
  // B-tree) or starts with (through the values' B-tree): an anchored piece reads only the values it names.
  const patterns: string[] = [];
  // column LIKE like finds the pattern's values through its index; `pattern` is the same condition on lower(value).
  const lookups: Array<{ column: string; like: string; pattern: string }> = [];
  // A word shorter than a trigram is still looked up whole (a scan of the values, far fewer than the plays);
  // shorter pieces of a longer word are left out (their family is not used).
  const pattern = (text: string, like: string, lookup: { column: string; like: string }) => {
    if (text.length < SHORTEST_PIECE && text !== word) return undefined;
    if (!patterns.includes(like)) {
      patterns.push(like);
      lookups.push({ ...lookup, pattern: like });
    }
    return like;
  };
  const VALUE = 'lower(v.value)';
  const contains = (text: string) => pattern(text, containsPattern(text), { column: VALUE, like: containsPattern(text) });
  const endsWith = (text: string) =>
    pattern(text, `%${escapeLike(text)}`, { column: `reverse(${VALUE})`, like: `${escapeLike([...text].reverse().join(''))}%` });
  const startsWith = (text: string) => pattern(text, `${escapeLike(text)}%`, { column: VALUE, like: `${escapeLike(text)}%` });
  const whole = contains(word);
  // UTF-16 positions, as slice() counts them (a character outside the BMP takes two).
  const spaces = word.split('').flatMap((char, index) => (char === ' ' ? [index] : []));
  const crossing = (pieces: Array<string | undefined>) => (pieces.every((piece) => piece !== undefined) ? (pieces as string[]) : undefined);
  const crossings = [
    crossing([whole, ...spaces.map((at) => endsWith(word.slice(0, at)))]),
    crossing([whole, ...spaces.map((at) => startsWith(word.slice(at + 1)))]),
  ].filter((family) => family !== undefined);
  // The segments' patterns (other than the whole word) are looked up after the others, and only when needed.
  const anchored = patterns.length;
  let families = [...[...new Set(word.split(' '))].map((segment) => crossing([contains(segment)])), ...crossings].filter(
    (family) => family !== undefined,
  );
  if (patterns.length === 0) return { atLeast: 0, exact: false, candidatePlays: Infinity, plays: Infinity };

  // The values matching each pattern (at most `limit` + 1 per part: more means common) and their plays per kind;
  // the values themselves where they hold few plays (the keys of the family chosen are read after). One
  // subquery per pattern and part, the pattern its own parameter: the planner sees it and picks the index that
  // serves it. The small kinds (users, clients, devices, addresses: a few hundred values that hold every play)
  // are read apart from the titles, so that thousands of titles matching a short word do not hide, behind the
  // limit, the client or device whose plays show the word to be common (then its count is known at once).
  // The small kinds' values are read through the primary key (server, kind, value: a few hundred rows, each
  // compared): the value is written `v.value || ''` so that the planner does not intersect the trigram index's
  // matches (thousands of titles for a common piece) with them.
  // Only the whole word's pattern is split (it gives the count's bound); the others read every kind together.
  const smallKinds = `'{${SMALL_KINDS.join(',')}}'::text[]`;
  const parts = lookups.flatMap(({ column }, index) =>
    (patterns[index] === whole
      ? [
          { small: true, kinds: `AND v.kind = ANY(${smallKinds})`, column: column.replace('v.value', `(v.value || '')`) },
          { small: false, kinds: `AND v.kind <> ALL(${smallKinds})`, column },
        ]
      : [{ small: true, kinds: '', column }]
    ).map(({ small, kinds, column }) => ({
      pattern: index,
      small,
      sql: `SELECT server_id, kind, value, plays FROM history_search_values v
         WHERE v.server_id = ANY($1::uuid[]) ${kinds} AND ${column} LIKE lower($${index + 2}) AND v.plays > 0
         LIMIT ${limit + 1}`,
    })),
  );
  // The parts of the patterns `from` … `to` - 1 (and, with `total`, the plays of the server(s)).
  const lookUp = async (from: number, to: number, total: boolean) => {
    const chosen = parts.flatMap((part, index) => (part.pattern >= from && part.pattern < to ? [index] : []));
    const matched = chosen.map(
      (index) =>
        `SELECT ${index + 1} AS ord, * FROM (${parts[index]!.sql.replace(/\$(\d+)/g, (_, n: string) => (n === '1' ? '$1' : `$${Number(n) - from}`))}) AS v${index + 1}`,
    );
    return (await query(
      `WITH matched AS (
         ${matched.join('\n         UNION ALL ')}
       )
       SELECT m.ord::int AS ord, m.kind, count(*)::int AS terms, sum(m.plays)::int AS plays,
         CASE WHEN sum(m.plays) <= ${KEYED_PLAYS} THEN array_agg(m.value) END AS values
       FROM matched m GROUP BY m.ord, m.kind
       ${
         total
           ? `UNION ALL
       -- Every play has one user value: their sum is the number of plays.
       SELECT 0, 'user', 0, COALESCE(sum(plays), 0)::int, NULL FROM history_search_values WHERE server_id = ANY($1::uuid[]) AND kind = 'user'`
           : ''
       }`,
      [serverIds, ...lookups.slice(from, to).map((lookup) => lookup.like)],
    )) as Array<{ ord: number; kind: SearchTermKind; terms: number; plays: number; values: string[] | null }>;
  };
  const found = new Map<string, Found>(patterns.map((like) => [like, { complete: true, smallComplete: true, plays: 0, kinds: new Map() }]));
  const terms = new Map<string, number>(patterns.map((like) => [like, 0]));
  const partTerms = parts.map(() => 0);
  const note = (rows: Awaited<ReturnType<typeof lookUp>>) => {
    for (const row of rows.filter((row) => row.ord > 0)) {
      const like = patterns[parts[row.ord - 1]!.pattern]!;
      const entry = found.get(like)!;
      entry.plays += row.plays;
      entry.kinds.set(row.kind, { terms: row.terms, plays: row.plays, values: row.values });
      terms.set(like, terms.get(like)! + row.terms);
      partTerms[row.ord - 1]! += row.terms;
    }
    parts.forEach(({ pattern, small }, index) => {
      if (partTerms[index]! <= limit) return;
      const entry = found.get(patterns[pattern]!)!;
      entry.complete = false;
      // A part that reads the small kinds (alone or with the others) stopped: some of them may hold the word too.
      if (small) entry.smallComplete = false;
    });
  };
  const first = await lookUp(0, anchored, true);
  const plays = first.find((row) => row.ord === 0)?.plays ?? 0;
  note(first);
  // A segment's values contain every value of the whole word: its family holds at least the whole word's plays.
  // When the whole word's values were all read and a crossing family's other patterns hold no play, that family
  // holds exactly those plays, and no segment's family can hold fewer: the segments are not looked up ('storm
  // last 321': 'storm' and 'last' would read 1,001 titles each).
  const sufficient =
    whole !== undefined &&
    found.get(whole)!.complete &&
    crossings.some((family) => family.every((like) => like === whole || (found.get(like)!.complete && found.get(like)!.plays === 0)));
  if (patterns.length > anchored) {
    if (sufficient) families = crossings;
    else note(await lookUp(anchored, patterns.length, false));
  }

  const inWhole = whole ? found.get(whole)! : undefined;
  const atLeast = Math.max(0, ...[...(inWhole?.kinds.values() ?? [])].map((kind) => kind.plays));
  // Exact: W's values were all read and are of one kind, and some family shows that no match crosses fields.
  const exact =
    inWhole !== undefined &&
    inWhole.complete &&
    inWhole.kinds.size <= 1 &&
    families.some((family) => family.includes(whole!) && family.every((like) => like === whole || found.get(like)!.plays === 0));

  let best: Found[] | undefined;
  let bestPlays = Infinity;
  // The fewest plays, complete or not (an incomplete family's plays are a lower bound): what a scope reads.
  // No family when every piece is shorter than a trigram and the word is not ("a a"): the walk checks every play.
  let smallest: string[] = families[0] ?? [];
  let smallestPlays = Infinity;
  for (const family of families) {
    const entries = family.map((like) => found.get(like)!);
    const plays = entries.reduce((sum, entry) => sum + entry.plays, 0);
    if (entries.every((entry) => entry.complete) && plays < bestPlays) [best, bestPlays] = [entries, plays];
    if (plays < smallestPlays) [smallest, smallestPlays] = [family, plays];
  }
  const family = smallest.map((like) => lookups[patterns.indexOf(like)]!);
  const familyTerms = smallest.reduce((sum, like) => sum + terms.get(like)!, 0);
  const familyComplete = smallest.every((like) => found.get(like)!.complete);
  // The kinds the family's values may be of: those read, every kind of titles (the part read last), and every
  // small kind when their values were not all read.
  const familyKinds = new Set<SearchTermKind>(
    (Object.keys(SEARCH_TERM_KINDS) as SearchTermKind[]).filter((kind) => !SMALL_KINDS.includes(kind)),
  );
  for (const like of smallest) {
    const entry = found.get(like)!;
    for (const kind of entry.kinds.keys()) familyKinds.add(kind);
    if (!entry.smallComplete) SMALL_KINDS.forEach((kind) => familyKinds.add(kind));
  }
  const figures = {
    atLeast,
    exact,
    plays,
    family,
    familyTerms,
    familyComplete,
    familyPlays: smallestPlays,
    familyKinds: [...familyKinds],
    wholeKinds: Object.fromEntries([...(inWhole?.kinds ?? [])].map(([kind, { terms, plays }]) => [kind, { terms, plays }])),
  };
  if (!best || bestPlays > KEYED_PLAYS) return { ...figures, candidatePlays: Infinity };
  const summary: SearchPlan = { ...figures, candidatePlays: bestPlays };
  if (!wantKeys(summary)) return summary;
  const kinds: string[] = [];
  const values: string[] = [];
  for (const entry of best) {
    for (const [kind, found] of entry.kinds) {
      for (const value of found.values ?? []) {
        kinds.push(kind);
        values.push(value);
      }
    }
  }
  const keys = (await query(
    `SELECT kind, array_agg(DISTINCT key) AS keys FROM history_search_terms
     WHERE server_id = ANY($1::uuid[]) AND (kind, value) IN (SELECT * FROM unnest($2::text[], $3::text[])) AND plays > 0
     GROUP BY kind`,
    [serverIds, kinds, values],
  )) as Array<{ kind: SearchTermKind; keys: string[] }>;
  return { ...summary, candidates: byReach(keys) };
}

/** The (kind, value) rows of the family's patterns, on servers `servers`; each pattern bound in `bind`. */
function familyMatched(family: NonNullable<SearchPlan['family']>, servers: string, bind: unknown[]): string {
  return family
    .map(({ column, like }) => {
      bind.push(like);
      return `SELECT v.kind, v.value FROM history_search_values v
         WHERE v.server_id = ANY(${servers}) AND ${column} LIKE lower($${bind.length}) AND v.plays > 0`;
    })
    .join(' UNION ');
}

/**
 * The rows a search over a whole history counts when its family's values were not all read (search-plan's
 * lookup stops at LOOKUP_TERMS): the family's values and their keys are read in the same statement, and the
 * plays of those keys are checked (`where`: the server(s) and the search's check). The keys reach SQL as values
 * the planner does not look into (thousands of them: estimating each costs more than the read). `bind` is
 * extended; `serverIds` is bound again for the dictionary.
 */
export function familyKeyedRows(plan: SearchPlan, bind: unknown[], serverIds: string[], where: string[]): string | undefined {
  if (!plan.family || plan.family.length === 0) return undefined;
  bind.push(serverIds);
  const servers = `$${bind.length}::uuid[]`;
  const matched = familyMatched(plan.family, servers, bind);
  const reaches = new Map<string, string[]>();
  for (const kind of plan.familyKinds ?? (Object.keys(SEARCH_TERM_KINDS) as SearchTermKind[])) {
    const { reach } = SEARCH_TERM_KINDS[kind];
    reaches.set(reach, [...(reaches.get(reach) ?? []), kind]);
  }
  const reached = [...reaches].map(
    ([reach, kinds]) =>
      `${reach} = ANY((SELECT array_agg(key) FROM keys WHERE kind IN (${kinds.map((kind) => `'${kind}'`).join(', ')}))::text[])`,
  );
  return `WITH matched AS (${matched}),
     keys AS MATERIALIZED (
       SELECT t.kind, t.key FROM history_search_terms t JOIN matched m ON m.kind = t.kind AND m.value = t.value
       WHERE t.server_id = ANY(${servers}) AND t.plays > 0
     )
     SELECT 1 FROM playback_history WHERE ${where.join(' AND ')} AND (${reached.join(' OR ')})`;
}

/**
 * The rows a search over a whole history counts, for a word without a space whose values were not all read, in
 * two parts: the plays whose one field holds the word most often (the base), counted from the dictionary alone
 * (a kind's values are disjoint sets of plays, and every play of a value containing the word matches), and the
 * plays of the other kinds' keys that match and whose base field does not hold the word, read and checked. A
 * word without a space lies inside one field of every matching play, so the two parts are disjoint and hold every
 * match. `storm` at 100 k plays: 7,026 title plays are a sum, 6,895 series plays are read (were 3,725 values' keys
 * and about 14,000 plays). At most `cap` + 1 rows of the base are listed (countRows stops there). `where` is the
 * server(s) and the search's check; `bind` is extended.
 */
export function baseCountRows(
  plan: SearchPlan,
  word: string,
  bind: unknown[],
  serverIds: string[],
  where: string[],
  cap: number,
): string | undefined {
  if (word.includes(' ') || !plan.wholeKinds) return undefined;
  // Kinds of one history column (series and series_item: series_name) count that column's plays together. The
  // base is the column of the most values (the rest reads each value's keys), then of the most plays.
  const columns = new Map<string, { kinds: SearchTermKind[]; terms: number; plays: number }>();
  for (const kind of Object.keys(SEARCH_TERM_KINDS) as SearchTermKind[]) {
    const column = SEARCH_TERM_KINDS[kind].value;
    const entry = columns.get(column) ?? { kinds: [], terms: 0, plays: 0 };
    entry.kinds.push(kind);
    entry.terms += plan.wholeKinds[kind]?.terms ?? 0;
    entry.plays += plan.wholeKinds[kind]?.plays ?? 0;
    columns.set(column, entry);
  }
  const more = (a: { terms: number; plays: number }, b: { terms: number; plays: number }) =>
    a.terms > b.terms || (a.terms === b.terms && a.plays > b.plays);
  const [column, base] = [...columns].reduce((best, next) => (more(next[1], best[1]) ? next : best));
  if (base.terms === 0) return undefined;
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const servers = `${param(serverIds)}::uuid[]`;
  const like = `lower(${param(containsPattern(word))})`;
  const list = (kinds: SearchTermKind[]) => kinds.map((kind) => `'${kind}'`).join(', ');
  const values = (kinds: SearchTermKind[]) => `SELECT v.kind, v.value, v.plays FROM history_search_values v
       WHERE v.server_id = ANY(${servers}) AND v.kind IN (${list(kinds)}) AND lower(v.value) LIKE ${like} AND v.plays > 0`;
  const counted = `SELECT 1 FROM generate_series(1, LEAST((SELECT COALESCE(sum(plays), 0) FROM (${values(base.kinds)}) AS base), ${cap + 1}))`;
  const rest = (plan.familyKinds ?? (Object.keys(SEARCH_TERM_KINDS) as SearchTermKind[])).filter((kind) => !base.kinds.includes(kind));
  if (rest.length === 0) return counted;
  const reaches = new Map<string, SearchTermKind[]>();
  for (const kind of rest) {
    const { reach } = SEARCH_TERM_KINDS[kind];
    reaches.set(reach, [...(reaches.get(reach) ?? []), kind]);
  }
  // As in familyKeyedRows, the keys reach the plan as a value it does not look into.
  const reached = [...reaches].map(
    ([reach, kinds]) => `${reach} = ANY((SELECT array_agg(key) FROM rest_terms WHERE kind IN (${list(kinds)}))::text[])`,
  );
  return `WITH rest_terms AS MATERIALIZED (
       SELECT t.kind, t.key FROM history_search_terms t JOIN (${values(rest)}) AS m ON m.kind = t.kind AND m.value = t.value
       WHERE t.server_id = ANY(${servers}) AND t.plays > 0
     )
     ${counted}
     UNION ALL
     SELECT 1 FROM playback_history WHERE ${where.join(' AND ')} AND (${reached.join(' OR ')})
       AND (lower(${column}) LIKE ${like}) IS NOT TRUE`;
}

/** Keys read from the dictionary per kind, merged per condition that reaches their plays. */
function byReach(rows: Array<{ kind: SearchTermKind; keys: string[] }>): NonNullable<SearchPlan['candidates']> {
  const reached = new Map<string, Set<string>>();
  for (const { kind, keys } of rows) {
    const { reach } = SEARCH_TERM_KINDS[kind];
    reached.set(reach, new Set([...(reached.get(reach) ?? []), ...keys]));
  }
  return [...reached].map(([reach, keys]) => ({ reach, keys: [...keys] }));
}

/**
 * Whether a page of `rows` (offset + size) is read from the candidates rather than by walking the history in
 * the page's order. With a scope or filter the density there is unknown: the candidates are read.
 */
export function keyedPage(plan: SearchPlan, rows: number, whole: boolean): boolean {
  if (!Number.isFinite(plan.candidatePlays)) return false;
  if (!whole) return true;
  return walkCost(plan, rows) >= plan.candidatePlays;
}

/** Plays a walk of a whole history in the page's order reads to find `rows` matches (at the surest density). */
const walkedRows = (plan: SearchPlan, rows: number) => (rows * plan.plays) / Math.max(1, plan.atLeast);
/** A walk's cost in keyed rows (each walked play a random table read). */
export const walkCost = (plan: SearchPlan, rows: number) => walkedRows(plan, rows) * WALK_ROW_COST;
/**
 * A walk of the date index that keeps the candidates' plays by key (history-query.ts datedWalkPage), in keyed
 * rows: the index entries walked, INDEX_ENTRIES_PER_ROW to a keyed row (no table read), and the table reads of
 * the candidates kept on the way (in the candidates' proportion to the surest matches).
 */
export const datedWalkCost = (plan: SearchPlan, rows: number) =>
  walkedRows(plan, rows) / INDEX_ENTRIES_PER_ROW + (rows * plan.candidatePlays) / Math.max(1, plan.atLeast);
