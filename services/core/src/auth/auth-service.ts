import type { AppConfig } from '../config/load-config.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import { clientPasswordDigest, hashPassword, verifyPassword } from './password-hash.js';
import { signToken, verifyToken } from './tokens.js';
import type { LoginRateLimiter } from './login-rate-limiter.js';
import type { Principal } from './principal.js';
import { SignInAccounts, type ExternalIdentity, type SignInAccount } from './sign-in-accounts.js';

interface AccountRow {
  id: number;
  username: string;
  password_hash: string;
  token_version: number;
}

/** Per-username failures allowed, as a multiple of the per-address limit (LOGIN_MAX_FAILURES). */
const USERNAME_LIMIT_FACTOR = 4;

/**
 * Accounts, logins and tokens. There is one local administrator account (SPEC.md §6); everyone else signs in
 * with a media-server account or OpenID Connect (sign_in_accounts, docs/security.md).
 */
export class AuthService {
  readonly signInAccounts: SignInAccounts;

  constructor(
    private readonly db: Database,
    private readonly config: Pick<
      AppConfig,
      'jwtSecret' | 'tokenTtlHours' | 'tokenRenewMaxHours' | 'loginLockoutMinutes' | 'loginMaxFailures'
    >,
    private readonly limiter: LoginRateLimiter,
    private readonly logger: Logger,
  ) {
    this.signInAccounts = new SignInAccounts(db);
  }

  async hasAdmin(): Promise<boolean> {
    const [row] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_accounts');
    return (row?.n ?? 0) > 0;
  }

  /**
   * Creates the administrator, only while none exists: a running instance cannot be claimed by whoever
   * arrives later. The table lock makes two simultaneous first-run requests create one account, not two.
   */
  async createFirstAdmin(username: string, passwordDigest: string, address?: string): Promise<{ token: string }> {
    // The cheap checks come before the expensive hash: once an administrator exists, and from a client that
    // keeps asking, this costs one query rather than an scrypt each time.
    if (address !== undefined)
      await this.reserveAttempt(`createuser:${address}`, this.config.loginMaxFailures, 'attempts to create the account');
    if (await this.hasAdmin()) throw AppError.forbidden('An administrator account already exists');
    const passwordHash = await hashPassword(passwordDigest);
    const account = await this.db.sequelize.transaction(async (transaction) => {
      await this.db.sequelize.query('LOCK TABLE admin_accounts IN EXCLUSIVE MODE', { transaction });
      const [existing] = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_accounts', [], transaction);
      if ((existing?.n ?? 0) > 0) throw AppError.forbidden('An administrator account already exists');
      const [created] = await this.db.query<AccountRow>(
        'INSERT INTO admin_accounts (username, password_hash) VALUES ($1, $2) RETURNING id, username, password_hash, token_version',
        [username, passwordHash],
        transaction,
      );
      return created!;
    });
    if (address !== undefined) await this.limiter.reset(`createuser:${address}`);
    this.logger.info({ username }, 'administrator account created');
    return { token: this.issueToken(account) };
  }

  /** Creates the administrator from ADMIN_USERNAME / ADMIN_PASSWORD when none exists yet (GitOps). */
  async ensureBootstrapAdmin(admin: { username: string; password: string } | undefined): Promise<void> {
    if (!admin || (await this.hasAdmin())) return;
    try {
      await this.createFirstAdmin(admin.username, clientPasswordDigest(admin.password));
    } catch (error) {
      if (!(error instanceof AppError && error.status === 403)) throw error;
    }
  }

  /**
   * Each attempt is counted before the password is checked, per client address and per username (the
   * latter at USERNAME_LIMIT_FACTOR times the limit: a distributed guesser rotating addresses still hits it,
   * and it takes many more failures to lock the administrator out). A success gives both counts back.
   */
  async login(username: string, passwordDigest: string, address: string): Promise<{ token: string }> {
    const addressKey = `address:${address}`;
    const userKey = `user:${username.trim().toLowerCase()}`;
    await this.reserveAttempt(addressKey, this.config.loginMaxFailures);
    await this.reserveAttempt(userKey, this.config.loginMaxFailures * USERNAME_LIMIT_FACTOR);
    const account = await this.findByUsername(username);
    // Hash even for an unknown user, so that timing does not tell which usernames exist.
    const ok = account ? await verifyPassword(passwordDigest, account.password_hash) : (await hashPassword(passwordDigest), false);
    if (!account || !ok) {
      this.logger.warn({ address }, 'failed login');
      throw AppError.unauthorized('Invalid username or password');
    }
    await Promise.all([this.limiter.reset(addressKey), this.limiter.reset(userKey)]);
    return { token: this.issueToken(account) };
  }

  /**
   * Runs a sign-in checked elsewhere (the media server) under the same limits as a local login: counted per
   * client address and per username before the check, given back on success.
   */
  async limitedAttempt<T>(kind: string, username: string, address: string, attempt: () => Promise<T>): Promise<T> {
    // Counted apart from local logins: the dashboard's one form tries the local administrator first, so a typo
    // would otherwise count twice.
    const addressKey = `${kind}:address:${address}`;
    const userKey = `${kind}:user:${username.trim().toLowerCase()}`;
    await this.reserveAttempt(addressKey, this.config.loginMaxFailures);
    await this.reserveAttempt(userKey, this.config.loginMaxFailures * USERNAME_LIMIT_FACTOR);
    const result = await attempt();
    await Promise.all([this.limiter.reset(addressKey), this.limiter.reset(userKey)]);
    return result;
  }

  private async reserveAttempt(key: string, limit: number, what = 'failed logins'): Promise<void> {
    const waitSeconds = await this.limiter.reserve(key, limit);
    if (waitSeconds > 0) {
      throw new AppError(429, 'too_many_attempts', `Too many ${what}. Try again in ${Math.ceil(waitSeconds / 60)} minute(s).`, {
        retryAfterSeconds: waitSeconds,
      });
    }
  }

  /** The principal behind a login token, or undefined when it is invalid, expired or revoked. */
  async authenticateToken(token: string): Promise<Principal | undefined> {
    const claims = verifyToken(token, this.config.jwtSecret);
    if (!claims) return undefined;
    if (claims.src === 'sign-in') {
      const signedIn = await this.signInAccounts.find(claims.sub);
      return signedIn && signedIn.tokenVersion === claims.ver ? SignInAccounts.principalOf(signedIn) : undefined;
    }
    const [account] = await this.db.query<AccountRow>(
      'SELECT id, username, password_hash, token_version FROM admin_accounts WHERE id = $1',
      [claims.sub],
    );
    if (!account || account.token_version !== claims.ver) return undefined;
    return { kind: 'admin', role: 'admin', accountId: account.id, username: account.username };
  }

  /**
   * SPEC.md §5 rules. Changing the password bumps the token version, which revokes every token issued
   * before; the caller gets a fresh token.
   */
  async updateCredentials(
    accountId: number,
    input: { username: string; currentPassword?: string | undefined; newPassword?: string | undefined },
  ): Promise<{ isValid: boolean; errorMessage: string; token?: string }> {
    const [account] = await this.db.query<AccountRow>(
      'SELECT id, username, password_hash, token_version FROM admin_accounts WHERE id = $1',
      [accountId],
    );
    if (!account) return { isValid: false, errorMessage: 'Account not found' };
    const username = input.username.trim();
    if (!username) return { isValid: false, errorMessage: 'Username is required' };
    if (input.currentPassword) {
      if (!input.newPassword) return { isValid: false, errorMessage: 'New password must be at least 6 characters' };
      if (!(await verifyPassword(input.currentPassword, account.password_hash)))
        return { isValid: false, errorMessage: 'Current password is incorrect' };
      const passwordHash = await hashPassword(input.newPassword);
      const [updated] = await this.db.query<AccountRow>(
        `UPDATE admin_accounts SET username = $2, password_hash = $3, token_version = token_version + 1, updated_at = now()
         WHERE id = $1 RETURNING id, username, password_hash, token_version`,
        [accountId, username, passwordHash],
      );
      this.logger.info({ username }, 'administrator password changed; older tokens revoked');
      return { isValid: true, errorMessage: '', token: this.issueToken(updated!) };
    }
    if (input.newPassword) return { isValid: false, errorMessage: 'Enter the current password to set a new one' };
    if (username !== account.username) {
      await this.db.query('UPDATE admin_accounts SET username = $2, updated_at = now() WHERE id = $1', [accountId, username]);
    }
    return { isValid: true, errorMessage: '' };
  }

  async adminUsername(): Promise<string | undefined> {
    const [row] = await this.db.query<{ username: string }>('SELECT username FROM admin_accounts ORDER BY id LIMIT 1');
    return row?.username;
  }

  private async findByUsername(username: string): Promise<AccountRow | undefined> {
    const [row] = await this.db.query<AccountRow>(
      'SELECT id, username, password_hash, token_version FROM admin_accounts WHERE lower(username) = lower($1)',
      [username],
    );
    return row;
  }

  /**
   * A fresh token for a valid one (silent renewal by the dashboard): same account and login time, new expiry.
   * Refused once the login is older than TOKEN_RENEW_MAX_HOURS, or when the token was revoked (password change).
   */
  async renewToken(token: string): Promise<string> {
    const claims = verifyToken(token, this.config.jwtSecret);
    if (claims?.src === 'sign-in') {
      const signedIn = await this.signInAccounts.find(claims.sub);
      if (!signedIn || signedIn.tokenVersion !== claims.ver) throw AppError.unauthorized('The login token is not valid; log in again');
      const authTime = claims.auth_time ?? claims.iat;
      this.checkRenewable(authTime);
      return this.issueSignInToken(signedIn, authTime);
    }
    const [account] = claims
      ? await this.db.query<AccountRow>('SELECT id, username, password_hash, token_version FROM admin_accounts WHERE id = $1', [claims.sub])
      : [];
    if (!claims || !account || account.token_version !== claims.ver)
      throw AppError.unauthorized('The login token is not valid; log in again');
    const authTime = claims.auth_time ?? claims.iat;
    this.checkRenewable(authTime);
    return this.issueToken(account, authTime);
  }

  private checkRenewable(authTime: number): void {
    if (Date.now() / 1000 - authTime > this.config.tokenRenewMaxHours * 3600)
      throw AppError.unauthorized('The login is too old to be renewed; log in again');
  }

  /**
   * Records a media-server or OpenID Connect sign-in (whose password or ID token the caller has checked) and
   * returns a login token for it.
   */
  async signInExternal(identity: ExternalIdentity): Promise<{ token: string; role: Principal['role'] }> {
    const account = await this.signInAccounts.record(identity);
    this.logger.info({ username: account.username, method: account.method, role: account.role }, 'signed in');
    return { token: this.issueSignInToken(account), role: account.role };
  }

  private issueSignInToken(account: SignInAccount, authTime = Math.floor(Date.now() / 1000)): string {
    return signToken(
      { sub: account.id, ver: account.tokenVersion, auth_time: authTime, src: 'sign-in' },
      this.config.jwtSecret,
      this.config.tokenTtlHours * 3600,
    );
  }

  private issueToken(account: AccountRow, authTime = Math.floor(Date.now() / 1000)): string {
    return signToken(
      { sub: account.id, ver: account.token_version, auth_time: authTime },
      this.config.jwtSecret,
      this.config.tokenTtlHours * 3600,
    );
  }
}
