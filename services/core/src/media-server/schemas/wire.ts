/**
 * Wire-format building blocks shared by the DTO schemas. Jellyfin and Emby omit null properties, but older
 * versions and proxies sometimes send them: `parseWireJson` drops every null while parsing, so each schema
 * only has to say "optional" and callers only ever see `undefined`.
 */
import { z } from 'zod';

/** Parses a JSON body, removing null properties (a null array element becomes a hole and fails validation). */
export function parseWireJson(text: string): unknown {
  // A plain parse and one walk instead of a reviver: a reviver is called for every value and made the parse of
  // a 2.9 MB /Sessions answer (500 sessions, every poll) about three times slower; nulls themselves are rare.
  const value: unknown = JSON.parse(text);
  if (value === null) return undefined;
  dropNulls(value);
  return value;
}

/** Deletes null properties and null array elements in place, as a reviver returning undefined would. */
function dropNulls(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      // A null element becomes a hole, as a reviver leaves it.
      if (element === null) delete value[i];
      else dropNulls(element);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const property = record[key];
    if (property === null) delete record[key];
    else dropNulls(property);
  }
}

/** ISO-8601 date-time as the servers write it (`2026-01-23T00:02:44.4648009Z`), kept as a string. */
export const wireDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected an ISO date-time' });

export const int = z.number().int();

/** An id: 32-hex GUID on Jellyfin, a numeric string on Emby. Some Emby pairs send numbers; normalised to strings. */
export const wireId = z.union([z.string().min(1), z.number().int()]).transform((v) => String(v));

/** Jellyfin's Guid.Empty, written for "no user" on sessions. */
export const EMPTY_GUID = '00000000000000000000000000000000';

export const nameIdPair = z.object({ Name: z.string().optional(), Id: wireId.optional() });

/** `path: message` for the first few issues, e.g. `Items[3].RunTimeTicks: expected number, received string`. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    const where = formatPath(issue.path);
    const message = issue.message.replace(/^Invalid input: /, '');
    return where ? `${where}: ${message}` : message;
  });
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}
