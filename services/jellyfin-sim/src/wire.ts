/** Wire-format helpers shared by every endpoint: dates, ids, ticks, JSON without nulls. */

export const TICKS_PER_SECOND = 10_000_000;
export const TICKS_PER_MS = 10_000;

/** The .NET DateTime.MinValue as Jellyfin writes it. */
export const MIN_DATE = '0001-01-01T00:00:00.0000000Z';

/** `yyyy-MM-ddTHH:mm:ss.fffffffZ` (7 fractional digits, UTC) from epoch milliseconds. */
export function formatDate(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // 2026-01-23T00:02:44.464Z
  return `${iso.slice(0, 23)}0000Z`;
}

/** The Playback Reporting plugin's "yyyy-MM-dd HH:mm:ss.FFFFFFF" (trailing zeros trimmed; server time = UTC here). */
export function formatSqliteDate(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  let frac = iso.slice(20, 23).replace(/0+$/, '');
  frac = frac ? `.${frac}` : '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac}`;
}

/** Accepts 32-hex or dashed GUIDs (any case) and returns the canonical 32-hex form; other strings unchanged. */
export function normalizeId(raw: string): string {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s)) {
    return s.replace(/-/g, '').toLowerCase();
  }
  if (/^\{[0-9a-fA-F-]{36}\}$/.test(s)) return s.slice(1, -1).replace(/-/g, '').toLowerCase();
  if (/^[0-9a-fA-F]{32}$/.test(s)) return s.toLowerCase();
  return s;
}

export function isGuid(s: string): boolean {
  return /^[0-9a-f]{32}$/.test(normalizeId(s));
}

/** JSON with null properties omitted (Jellyfin's WhenWritingNull); undefined is dropped by JSON itself. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, dropNulls);
}

function dropNulls(_key: string, v: unknown): unknown {
  return v === null ? undefined : v;
}

export function parseDate(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? undefined : t;
}
