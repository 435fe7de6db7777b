import type { Redis } from 'ioredis';

/**
 * Counts attempts per key (a client address, a username) in a fixed window. An attempt is counted *before* the
 * password is checked (`reserve`), in one atomic step, so guesses sent in parallel all count: past the limit
 * they are refused without hashing anything. A successful login gives its reservation back (`reset`).
 * In a cluster the counts live in Redis so that every replica sees them.
 */
export interface LoginRateLimiter {
  /**
   * Counts one attempt for the key and says whether it may go ahead: the seconds to wait when the key is over
   * `limit` attempts in the window, else 0.
   */
  reserve(key: string, limit: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export class InMemoryLoginRateLimiter implements LoginRateLimiter {
  private readonly attempts = new Map<string, { count: number; windowEnds: number }>();

  constructor(private readonly windowMs: number) {}

  async reserve(key: string, limit: number): Promise<number> {
    const now = Date.now();
    let entry = this.attempts.get(key);
    if (!entry || entry.windowEnds <= now) {
      entry = { count: 0, windowEnds: now + this.windowMs };
      this.attempts.set(key, entry);
    }
    entry.count += 1;
    if (this.attempts.size > 10_000) this.prune(now);
    return entry.count > limit ? Math.ceil((entry.windowEnds - now) / 1000) : 0;
  }

  async reset(key: string): Promise<void> {
    this.attempts.delete(key);
  }

  private prune(now: number) {
    for (const [key, entry] of this.attempts) if (entry.windowEnds <= now) this.attempts.delete(key);
  }
}

/** INCR and the window's expiry in one server-side step (a crash between the two would never expire the key). */
const RESERVE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

export class RedisLoginRateLimiter implements LoginRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowMs: number,
  ) {}

  private key(key: string) {
    return `${this.prefix}:login-attempts:${key}`;
  }

  async reserve(key: string, limit: number): Promise<number> {
    const [count, ttl] = (await this.redis.eval(RESERVE_SCRIPT, 1, this.key(key), String(this.windowMs))) as [number, number];
    return count > limit ? Math.max(1, Math.ceil(ttl / 1000)) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }
}
