import { createHmac, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcConfig } from '../config/load-config.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { AuthService } from './auth-service.js';
import type { MediaUserRef } from './principal.js';

/** The cookie that carries one sign-in's state, nonce and PKCE verifier from /start to /callback. */
export const OIDC_FLOW_COOKIE = 'reelstat_oidc';
/** How long a person has to sign in at the provider. */
export const OIDC_FLOW_SECONDS = 600;

/** One sign-in in progress, as sealed into the flow cookie (signed, so the browser cannot change it). */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  /** Seconds since the epoch after which the flow is refused. */
  expires: number;
}

/** Seals a flow with HMAC-SHA256 under the login-token secret (a different purpose prefix keeps them apart). */
export function sealFlow(flow: OidcFlow, secret: string): string {
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(`oidc-flow:${payload}`).digest('base64url')}`;
}

function openFlow(sealed: string | undefined, secret: string): OidcFlow | undefined {
  const [payload, signature, extra] = (sealed ?? '').split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = createHmac('sha256', secret).update(`oidc-flow:${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OidcFlow;
    return flow.expires * 1000 > Date.now() ? flow : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface OidcSignInOptions {
  /** Seconds added to the clock when checking token times (openid-client's clockSkew); tests use it. */
  clockSkewSeconds?: number;
}

/**
 * Sign-in with OpenID Connect (authorization code flow with PKCE, state and nonce; docs/security.md). The
 * provider is found by discovery on first use; openid-client checks the ID token (signature against the
 * provider's keys, issuer, audience, expiry, nonce). Members of OIDC_ADMIN_GROUPS become admins, everyone else
 * a viewer linked to the media-server user named by OIDC_LINK_CLAIM.
 */
export class OidcSignIn {
  private discovered: Promise<client.Configuration> | undefined;

  constructor(
    readonly config: OidcConfig,
    private readonly auth: AuthService,
    private readonly db: Database,
    private readonly secret: string,
    private readonly logger: Logger,
    private readonly options: OidcSignInOptions = {},
  ) {}

  /** Where the browser goes to sign in, and the flow cookie to set. */
  async start(redirectUri: string): Promise<{ url: string; cookie: string }> {
    const configuration = await this.provider();
    const codeVerifier = client.randomPKCECodeVerifier();
    const flow: OidcFlow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier,
      redirectUri: this.config.redirectUrl ?? redirectUri,
      expires: Math.floor(Date.now() / 1000) + OIDC_FLOW_SECONDS,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: flow.redirectUri,
      scope: this.config.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url: url.href, cookie: sealFlow(flow, this.secret) };
  }

  /**
   * The provider sent the browser back with a code: checks it against the flow cookie, redeems it, validates
   * the ID token and signs the person in.
   */
  async finish(callbackUrl: URL, sealedFlow: string | undefined): Promise<{ token: string; role: 'admin' | 'viewer' }> {
    const flow = openFlow(sealedFlow, this.secret);
    if (!flow) throw AppError.badRequest('The sign-in expired or was started in another browser; start it again');
    const providerError = callbackUrl.searchParams.get('error');
    if (providerError) {
      const description = callbackUrl.searchParams.get('error_description');
      throw AppError.unauthorized(`The provider refused the sign-in: ${description ?? providerError}`);
    }
    const configuration = await this.provider();
    // The code is redeemed at the registered redirect URI, whatever address the browser came back on.
    const current = new URL(flow.redirectUri);
    current.search = callbackUrl.search;
    let claims: client.IDToken;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
      // Many providers keep the ID token short (OIDC core 5.4): the profile and groups then come from UserInfo,
      // which openid-client checks is about the same subject.
      if (configuration.serverMetadata().userinfo_endpoint) {
        const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
        claims = { ...info, ...claims };
      }
    } catch (error) {
      const reason = innermostMessage(error);
      this.logger.warn({ err: reason }, 'OpenID Connect sign-in refused');
      throw AppError.unauthorized(`OpenID Connect sign-in failed: ${reason}`);
    }
    const groups = claimList(claims[this.config.groupsClaim]);
    const role = groups.some((group) => this.config.adminGroups.includes(group)) ? 'admin' : 'viewer';
    const username = claimText(claims[this.config.usernameClaim]) ?? claimText(claims.email) ?? claims.sub;
    return this.auth.signInExternal({
      method: 'oidc',
      subject: `${claims.iss} ${claims.sub}`,
      username,
      role,
      mediaUser: await this.linkedUser(claimText(claims[this.config.linkClaim])),
    });
  }

  /**
   * The media-server user whose name is the link claim's value (for an email, also its part before the @),
   * on the default server first.
   */
  private async linkedUser(value: string | undefined): Promise<MediaUserRef | undefined> {
    if (!value) return undefined;
    const names = [value, ...(value.includes('@') ? [value.slice(0, value.indexOf('@'))] : [])].map((name) => name.toLowerCase());
    const [row] = await this.db.query<{ server_id: string; id: string }>(
      `SELECT u.server_id, u.id FROM media_users u JOIN media_servers s ON s.id = u.server_id
       WHERE lower(u.name) = ANY($1::text[]) ORDER BY s.is_default DESC, array_position($1::text[], lower(u.name)), s.created_at LIMIT 1`,
      [names],
    );
    return row ? { serverId: row.server_id, userId: row.id } : undefined;
  }

  private provider(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      // A provider that was down is asked again at the next sign-in.
      this.discovered = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn({ issuer: this.config.issuer, err: reason }, 'OpenID Connect discovery failed');
      throw new AppError(503, 'oidc_unavailable', `The OpenID provider could not be reached (${reason}); try again later`);
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.config.issuer);
    // Plain http only for a provider on this machine (tests, a sidecar); anything else must be https.
    const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
    const metadata: Partial<client.ClientMetadata> = {
      ...(this.options.clockSkewSeconds ? { [client.clockSkew]: this.options.clockSkewSeconds } : {}),
    };
    const authentication = this.config.clientSecret ? client.ClientSecretBasic(this.config.clientSecret) : client.None();
    return client.discovery(issuer, this.config.clientId, metadata, authentication, {
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
  }
}

/** openid-client wraps the check that failed ("unexpected ID Token "nonce" claim value") in a generic error. */
function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(error);
}

function claimText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function claimList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === 'string');
  return typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : [];
}
