/** Query parameters matched case-insensitively (ASP.NET model binding), with comma lists or repeated keys. */
export class Params {
  private readonly map = new Map<string, string[]>();

  constructor(search: URLSearchParams) {
    for (const [k, v] of search) {
      const key = k.toLowerCase();
      const list = this.map.get(key);
      if (list) list.push(v);
      else this.map.set(key, [v]);
    }
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  get(name: string): string | undefined {
    const v = this.map.get(name.toLowerCase())?.[0];
    return v === undefined || v === '' ? undefined : v;
  }

  list(name: string): string[] {
    const raw = this.map.get(name.toLowerCase());
    if (!raw) return [];
    return raw
      .flatMap((v) => v.split(','))
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }

  bool(name: string): boolean | undefined {
    const v = this.get(name)?.toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return undefined;
  }

  /** Integer parameter; throws ArgumentError (→ 400) on garbage, as model binding would. */
  int(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw new HttpError(400, 'Error processing request.');
    return Number(v);
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string = '',
    readonly contentType = 'text/plain; charset=utf-8',
  ) {
    super(`HTTP ${status}`);
  }
}
