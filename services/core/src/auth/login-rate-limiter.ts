import type { Redis } from 'ioredis';

/**
 * Counts failed logins per client address in a fixed window. Past the limit, logins from that address are
 * refused until the window ends. In a cluster the count lives in Redis so that every replica sees it.
 */
export interface LoginRateLimiter {
  /** Seconds until the address may try again, or 0 when it may try now. */
  blockedFor(address: string): Promise<number>;
  recordFailure(address: string): Promise<void>;
  reset(address: string): Promise<void>;
}

export class InMemoryLoginRateLimiter implements LoginRateLimiter {
  private readonly failures = new Map<string, { count: number; windowEnds: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  async blockedFor(address: string): Promise<number> {
    const entry = this.failures.get(address);
    if (!entry) return 0;
    if (entry.windowEnds <= Date.now()) {
      this.failures.delete(address);
      return 0;
    }
    return entry.count >= this.maxFailures ? Math.ceil((entry.windowEnds - Date.now()) / 1000) : 0;
  }

  async recordFailure(address: string): Promise<void> {
    const now = Date.now();
    const entry = this.failures.get(address);
    if (!entry || entry.windowEnds <= now) this.failures.set(address, { count: 1, windowEnds: now + this.windowMs });
    else entry.count += 1;
    if (this.failures.size > 10_000) this.prune(now);
  }

  async reset(address: string): Promise<void> {
    this.failures.delete(address);
  }

  private prune(now: number) {
    for (const [address, entry] of this.failures) if (entry.windowEnds <= now) this.failures.delete(address);
  }
}

export class RedisLoginRateLimiter implements LoginRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  private key(address: string) {
    return `${this.prefix}:login-failures:${address}`;
  }

  async blockedFor(address: string): Promise<number> {
    const [count, ttl] = await Promise.all([this.redis.get(this.key(address)), this.redis.pttl(this.key(address))]);
    return Number(count ?? 0) >= this.maxFailures && ttl > 0 ? Math.ceil(ttl / 1000) : 0;
  }

  async recordFailure(address: string): Promise<void> {
    const key = this.key(address);
    const count = await this.redis.incr(key);
    if (count === 1) await this.redis.pexpire(key, this.windowMs);
  }

  async reset(address: string): Promise<void> {
    await this.redis.del(this.key(address));
  }
}
