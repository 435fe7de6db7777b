import { SEARCH_TERM_KINDS, type SearchTermKind } from './search-terms.js';

/**
 * How a history search finds its plays (docs/performance.md "History search by dictionary"). A play matches
 * when the lower-cased text HISTORY_SEARCH_TEXT (its fields joined by single spaces) contains the lower-cased
 * word. Every maximal space-free segment of the word therefore lies inside one field of a matching play, so the
 * plays of the field values that contain a segment (history_search_terms) hold every match: they are the
 * candidates, and the text is checked on them. The segment whose values hold the fewest plays is the one used.
 *
 * - keyed: that segment's values hold at most KEYED_PLAYS plays: the plays are read by their keys and checked,
 *   then sorted and counted, whatever the sort (a rare word never walks the history).
 * - scan: every segment is common (or shorter than a trigram): matches are dense, and the history is walked in
 *   the page's order with the check, as for any filter.
 *
 * The values' play counts also bound the number of matches from below (the plays of a value that contains the
 * whole word all match), which answers a common word's capped count without counting.
 */
export const KEYED_PLAYS = 20_000;
/** More matching values than this for a segment: too many keys to read by (the segment is common). */
export const KEYED_TERMS = 2_000;
/** pg_trgm indexes three-character pieces: a shorter segment would read the whole dictionary. */
const SHORTEST_SEGMENT = 3;

export interface SearchPlan {
  /** Keys whose plays hold every match (a keyed plan), by the condition that reaches them; absent: scan. */
  candidates?: Array<{ reach: string; keys: string[] }>;
  /** Plays of the server(s) that surely match, and whether that is the exact number (no scope or filter). */
  atLeast: number;
  exact: boolean;
}

/** Runs one statement (a Database, or an export's own connection in its snapshot). */
export type Query = (sql: string, bind: unknown[]) => Promise<unknown[]>;

/** The LIKE pattern that finds `text` anywhere, with `%`, `_` and `\` as plain characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The plan of a search for the trimmed, non-empty `word` over the servers' histories. */
export async function planSearch(query: Query, serverIds: string[], word: string): Promise<SearchPlan> {
  const segments = [...new Set(word.split(' ').filter((segment) => segment.length >= SHORTEST_SEGMENT))];
  // The whole word's values give the lower bound; a word of one segment is its own.
  const patterns = word.includes(' ') && word.length >= SHORTEST_SEGMENT ? [...segments, word] : segments;
  if (patterns.length === 0) return { atLeast: 0, exact: false };
  const rows = (await query(
    `SELECT p.ord::int AS ord, t.kind, t.key, t.plays
     FROM unnest($2::text[]) WITH ORDINALITY AS p(pattern, ord)
     CROSS JOIN LATERAL (
       SELECT kind, key, plays FROM history_search_terms t
       WHERE t.server_id = ANY($1::uuid[]) AND lower(t.value) LIKE lower(p.pattern) AND t.plays > 0
       LIMIT ${KEYED_TERMS + 1}
     ) AS t`,
    [serverIds, patterns.map(containsPattern)],
  )) as Array<{ ord: number; kind: SearchTermKind; key: string; plays: number }>;
  const found = patterns.map((_, index) => rows.filter((row) => row.ord === index + 1));
  const playsOf = (terms: typeof rows) => terms.reduce((sum, term) => sum + term.plays, 0);

  // Lower bound: a kind's values are disjoint sets of plays, and every play of a value containing the whole
  // word matches. Exact when the word is one segment whose values were all read and are of one kind.
  const whole = found[found.length - 1]!;
  const kinds = new Set(whole.map((term) => term.kind));
  const atLeast = Math.max(0, ...[...kinds].map((kind) => playsOf(whole.filter((term) => term.kind === kind))));
  const exact = !word.includes(' ') && whole.length <= KEYED_TERMS && kinds.size <= 1;

  let rarest: typeof rows | undefined;
  for (const terms of found.slice(0, segments.length)) {
    if (terms.length > KEYED_TERMS) continue;
    if (!rarest || playsOf(terms) < playsOf(rarest)) rarest = terms;
  }
  if (!rarest || playsOf(rarest) > KEYED_PLAYS) return { atLeast, exact };
  const byReach = new Map<string, Set<string>>();
  for (const term of rarest) {
    const { reach } = SEARCH_TERM_KINDS[term.kind];
    byReach.set(reach, (byReach.get(reach) ?? new Set()).add(term.key));
  }
  return { candidates: [...byReach].map(([reach, keys]) => ({ reach, keys: [...keys] })), atLeast, exact };
}
