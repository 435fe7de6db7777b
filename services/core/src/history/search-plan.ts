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
}

/** Runs one statement (a Database, or an export's own connection in its snapshot). */
export type Query = (sql: string, bind: unknown[]) => Promise<unknown[]>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
/** The LIKE pattern that finds `text` anywhere, with `%`, `_` and `\` as plain characters. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

interface Found {
  /** Every value matching the pattern was read. */
  complete: boolean;
  plays: number;
  kinds: Map<SearchTermKind, { plays: number; values: string[] | null }>;
}

/** The plan of a search for the trimmed, non-empty `word` over the servers' histories. */
export async function planSearch(
  query: Query,
  serverIds: string[],
  word: string,
  /** Whether a keyed plan of these figures would be used: the keys are read only then. */
  wantKeys: (plan: SearchPlan) => boolean = () => true,
): Promise<SearchPlan> {
  // Each pattern is a condition on a value: contains, ends with (read backwards through the reversed values'
  // B-tree) or starts with (through the values' B-tree): an anchored piece reads only the values it names.
  const patterns: string[] = [];
  const lookups: Array<{ column: string; like: string }> = [];
  // A word shorter than a trigram is still looked up whole (a scan of the values, far fewer than the plays);
  // shorter pieces of a longer word are left out (their family is not used).
  const pattern = (text: string, like: string, lookup: { column: string; like: string }) => {
    if (text.length < SHORTEST_PIECE && text !== word) return undefined;
    if (!patterns.includes(like)) {
      patterns.push(like);
      lookups.push(lookup);
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
  const families = [
    ...[...new Set(word.split(' '))].map((segment) => crossing([contains(segment)])),
    crossing([whole, ...spaces.map((at) => endsWith(word.slice(0, at)))]),
    crossing([whole, ...spaces.map((at) => startsWith(word.slice(at + 1)))]),
  ].filter((family) => family !== undefined);
  if (patterns.length === 0) return { atLeast: 0, exact: false, candidatePlays: Infinity, plays: Infinity };

  // The values matching each pattern (at most LOOKUP_TERMS + 1: more means common) and their plays per kind;
  // the values themselves where they hold few plays (the keys of the family chosen are read after). One
  // subquery per pattern, its own parameter: the planner sees the pattern and picks the index that serves it.
  const matched = lookups.map(
    ({ column }, index) => `SELECT ${index + 1} AS ord, * FROM (
         SELECT server_id, kind, value, plays FROM history_search_values v
         WHERE v.server_id = ANY($1::uuid[]) AND ${column} LIKE lower($${index + 2}) AND v.plays > 0
         LIMIT ${LOOKUP_TERMS + 1}
       ) AS v${index + 1}`,
  );
  const rows = (await query(
    `WITH matched AS (
       ${matched.join('\n       UNION ALL ')}
     )
     SELECT m.ord::int AS ord, m.kind, count(*)::int AS terms, sum(m.plays)::int AS plays,
       CASE WHEN sum(m.plays) <= ${KEYED_PLAYS} THEN array_agg(m.value) END AS values
     FROM matched m GROUP BY m.ord, m.kind
     UNION ALL
     -- Every play has one user value: their sum is the number of plays.
     SELECT 0, 'user', 0, COALESCE(sum(plays), 0)::int, NULL FROM history_search_values WHERE server_id = ANY($1::uuid[]) AND kind = 'user'`,
    [serverIds, ...lookups.map((lookup) => lookup.like)],
  )) as Array<{ ord: number; kind: SearchTermKind; terms: number; plays: number; values: string[] | null }>;
  const found = new Map<string, Found>(patterns.map((like) => [like, { complete: true, plays: 0, kinds: new Map() }]));
  const plays = rows.find((row) => row.ord === 0)?.plays ?? 0;
  for (const row of rows.filter((row) => row.ord > 0)) {
    const entry = found.get(patterns[row.ord - 1]!)!;
    entry.plays += row.plays;
    entry.kinds.set(row.kind, { plays: row.plays, values: row.values });
  }
  for (const [like, entry] of found) {
    const terms = rows.filter((row) => patterns[row.ord - 1] === like).reduce((sum, row) => sum + row.terms, 0);
    entry.complete = terms <= LOOKUP_TERMS;
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
  for (const family of families) {
    const entries = family.map((like) => found.get(like)!);
    const plays = entries.reduce((sum, entry) => sum + entry.plays, 0);
    if (entries.every((entry) => entry.complete) && plays < bestPlays) [best, bestPlays] = [entries, plays];
  }
  if (!best || bestPlays > KEYED_PLAYS) return { atLeast, exact, candidatePlays: Infinity, plays };
  const summary: SearchPlan = { atLeast, exact, candidatePlays: bestPlays, plays };
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
  const byReach = new Map<string, Set<string>>();
  for (const { kind, keys: found } of keys) {
    const { reach } = SEARCH_TERM_KINDS[kind];
    byReach.set(reach, new Set([...(byReach.get(reach) ?? []), ...found]));
  }
  const candidates = [...byReach].map(([reach, keys]) => ({ reach, keys: [...keys] }));
  return { candidates, atLeast, exact, candidatePlays: bestPlays, plays };
}

/**
 * Whether a page of `rows` (offset + size) is read from the candidates rather than by walking the history in
 * the page's order. With a scope or filter the density there is unknown: the candidates are read.
 */
export function keyedPage(plan: SearchPlan, rows: number, whole: boolean): boolean {
  if (!Number.isFinite(plan.candidatePlays)) return false;
  if (!whole) return true;
  const walked = (rows * plan.plays) / Math.max(1, plan.atLeast);
  return walked * WALK_ROW_COST >= plan.candidatePlays;
}
