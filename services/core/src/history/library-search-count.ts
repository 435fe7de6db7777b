import type { Database } from '../db/database.js';
import { LIBRARY_VALUE_SCOPES, libraryValueKey } from './rollup-sql.js';

/**
 * The count of a search within one library, no other filter, from play_totals' library clients and devices
 * (0039), when the word's matches are "one of the play's fields is one of these values" (search-pages.ts
 * fieldValuesCheck: `byField`, the values per column). A play has one client and one device, so the plays of a
 * column's values within the library are the sum of their totals:
 *  - every value in one column that has totals (a client's or a device's word): that sum is the count, exact;
 *  - values in several columns: a play may match in two, so the largest column's sum is only a lower bound, and
 *    it answers when it passes the cap ("at least" the cap; the count is capped anyway);
 * otherwise undefined, and the caller reads the library's plays. `android` in a library of 2.2 million plays at
 * 5 M: 40–60 ms of reading up to the cap, against one index look-up per value here.
 */
export async function libraryValuesCount(
  db: Database,
  servers: string[],
  libraryId: string,
  byField: Map<string, string[]>,
  cap: number,
): Promise<number | undefined> {
  const counted = [...byField].filter(([field]) => field in LIBRARY_VALUE_SCOPES);
  if (counted.length === 0) return undefined;
  const bind: unknown[] = [servers, libraryId];
  const sums = counted.map(([field, values]) => {
    bind.push(values);
    const scope = LIBRARY_VALUE_SCOPES[field as keyof typeof LIBRARY_VALUE_SCOPES];
    return `(SELECT COALESCE(sum(plays), 0) FROM play_totals WHERE server_id = ANY($1::uuid[]) AND scope = '${scope}'
        AND key = ANY(ARRAY(SELECT ${libraryValueKey('$2::text', 'v')} FROM unnest($${bind.length}::text[]) AS v)))::bigint`;
  });
  const [row] = await db.query<{ plays: string[] }>(`SELECT ARRAY[${sums.join(', ')}]::text[] AS plays`, bind);
  const plays = (row?.plays ?? []).map(Number);
  if (byField.size === 1 && counted.length === 1) return plays[0]!;
  const largest = Math.max(...plays);
  return largest > cap ? largest : undefined;
}
