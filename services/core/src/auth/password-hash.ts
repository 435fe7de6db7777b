import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * The browser never sends the password itself but its SHA3-512 hex digest (SPEC.md §5). We treat that digest
 * as the password and store a salted scrypt hash of it (memory-hard: N=2^15, r=8, p=1 uses 32 MiB).
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const MAX_MEMORY = 64 * 1024 * 1024;

/** The same digest the browser computes; used for passwords given to the server in plain text (ADMIN_PASSWORD). */
export function clientPasswordDigest(plain: string): string {
  return createHash('sha3-512').update(plain, 'utf8').digest('hex');
}

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(digest: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(digest, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(digest: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const key = await derive(digest, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  const expectedKey = Buffer.from(expected, 'base64url');
  return expectedKey.length === key.length && timingSafeEqual(key, expectedKey);
}
