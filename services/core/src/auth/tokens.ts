import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Claims of a login token: the account, the account's token version (bumped to revoke), issue and expiry, and
 * when the user logged in (auth_time, kept through renewals; tokens from before it existed count from iat).
 */
export interface TokenClaims {
  sub: number;
  ver: number;
  iat: number;
  exp: number;
  auth_time?: number;
  /** 'sign-in': `sub` is a sign_in_accounts id (media-server or OIDC sign-in); absent: the local administrator. */
  src?: 'sign-in';
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** A compact JWT signed with HMAC-SHA256. Written here (30 lines) rather than pulled in as a dependency. */
export function signToken(claims: Omit<TokenClaims, 'iat' | 'exp'>, secret: string, ttlSeconds: number, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds })).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** Returns the claims of a well-formed, correctly signed, unexpired token; otherwise undefined. */
export function verifyToken(token: string, secret: string, now = Date.now()): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: Partial<TokenClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TokenClaims>;
  } catch {
    return undefined;
  }
  if (typeof claims.sub !== 'number' || typeof claims.ver !== 'number' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number')
    return undefined;
  if (claims.exp * 1000 <= now) return undefined;
  return claims as TokenClaims;
}
