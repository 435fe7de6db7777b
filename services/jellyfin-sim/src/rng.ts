/**
 * Seeded pseudo-random numbers. Generation never touches Math.random, so one seed always gives one library.
 * sfc32 seeded through splitmix32: fast, good enough statistically, and trivially forkable per domain.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    let s = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error('pick from empty list');
    return list[Math.floor(this.next() * list.length)] as T;
  }

  /** Weighted pick: entries are [value, weight]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [v, w] of entries) {
      r -= w;
      if (r < 0) return v;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  /** 32 lowercase hex digits, shaped like a v4 GUID written with Guid.ToString("N"). */
  hex32(): string {
    const parts: string[] = [];
    for (let i = 0; i < 4; i++) parts.push(this.u32().toString(16).padStart(8, '0'));
    const s = parts.join('');
    return `${s.slice(0, 12)}4${s.slice(13, 16)}${'89ab'[this.u32() & 3]}${s.slice(17)}`;
  }

  /** Independent stream for a sub-domain, so adding draws in one domain does not shift another. */
  fork(label: string): Rng {
    return new Rng((this.u32() ^ hashString(label)) >>> 0);
  }
}

/** FNV-1a 32-bit. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
