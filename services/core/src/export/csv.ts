/**
 * CSV text per RFC 4180: fields joined by commas, lines ended by CRLF; a field holding a comma, a quote, a
 * carriage return or a line feed is quoted (quotes doubled). A text cell that a spreadsheet would read as a
 * formula (it starts with = + - @, a tab or a carriage return) gets a leading apostrophe first (OWASP's advice
 * against CSV injection), so an exported title such as "=HYPERLINK(…)" stays text. Numbers are written as is.
 */
export type CsvValue = string | number | boolean | null | undefined;

/** The UTF-8 byte order mark, which makes Excel read the file as UTF-8 (optional: `bom=true`). */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A download name safe in a Content-Disposition header: letters, digits, dot, dash and underscore only. */
export function csvFileName(parts: readonly string[], now = new Date()): string {
  const name = [...parts, now.toISOString().slice(0, 10)].join('-').replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${name}.csv`;
}
