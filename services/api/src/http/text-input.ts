/** A NUL character or a UTF-16 surrogate that is not part of a pair. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what we look for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first place in a request value (body, query, params: any depth, keys too) that holds text PostgreSQL
 * cannot store or that is not valid Unicode: a NUL, or an unpaired surrogate (`"\ud800"` in JSON). Checked
 * for every route before its schema, so no string of the contract can reach the database with one.
 */
export function findUnstorableText(value: unknown, where: string, depth = 0): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? where : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${where}[${key}]` : `${where}.${key}`;
    if (UNSTORABLE.test(key)) return at;
    const found = findUnstorableText(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}
