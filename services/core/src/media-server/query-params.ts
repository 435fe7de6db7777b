/** Query-string building. Both servers match parameter names case-insensitively and take comma-separated lists. */

export type QueryValue = string | number | boolean | readonly string[] | undefined;
export type QueryParams = Record<string, QueryValue>;

/** Appends defined, non-empty values; `name` maps the canonical camelCase name to the server's spelling. */
export function appendQuery(url: URL, params: QueryParams | undefined, name: (canonical: string) => string): void {
  if (!params) return;
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) url.searchParams.set(name(key), value.join(','));
      continue;
    }
    url.searchParams.set(name(key), String(value));
  }
}

/** `parentId` → `ParentId`, as Emby documents its parameters. */
export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
