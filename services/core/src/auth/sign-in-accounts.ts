import type { Database } from '../db/database.js';
import type { AccessRole, MediaUserRef, Principal } from './principal.js';

/** A person who signed in with a media-server account or OpenID Connect, as sign_in_accounts keeps them. */
export interface SignInAccount {
  id: number;
  method: 'media-server' | 'oidc';
  username: string;
  role: AccessRole;
  tokenVersion: number;
  mediaUser: MediaUserRef | undefined;
}

/** Who the external sign-in says the person is (the password or ID token was checked by the caller). */
export interface ExternalIdentity {
  method: 'media-server' | 'oidc';
  /** Stable within the method: "<server id>:<user id>" or "<issuer> <sub>". */
  subject: string;
  username: string;
  role: AccessRole;
  mediaUser: MediaUserRef | undefined;
}

interface Row {
  id: number;
  method: 'media-server' | 'oidc';
  username: string;
  role: AccessRole;
  token_version: number;
  server_id: string | null;
  media_user_id: string | null;
}

const COLUMNS = 'id, method, username, role, token_version, server_id, media_user_id';

function toAccount(row: Row): SignInAccount {
  return {
    id: row.id,
    method: row.method,
    username: row.username,
    role: row.role,
    tokenVersion: row.token_version,
    mediaUser: row.server_id && row.media_user_id ? { serverId: row.server_id, userId: row.media_user_id } : undefined,
  };
}

/**
 * The sign_in_accounts table. The role and the linked media-server user are refreshed at every sign-in (a user
 * made administrator on the media server is admin here at their next sign-in); no password is ever stored.
 */
export class SignInAccounts {
  constructor(private readonly db: Database) {}

  async record(identity: ExternalIdentity): Promise<SignInAccount> {
    const [row] = await this.db.query<Row>(
      `INSERT INTO sign_in_accounts (method, subject, username, role, server_id, media_user_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (method, subject) DO UPDATE SET username = EXCLUDED.username, role = EXCLUDED.role,
         server_id = EXCLUDED.server_id, media_user_id = EXCLUDED.media_user_id, last_sign_in_at = now()
       RETURNING ${COLUMNS}`,
      [
        identity.method,
        identity.subject,
        identity.username,
        identity.role,
        identity.mediaUser?.serverId ?? null,
        identity.mediaUser?.userId ?? null,
      ],
    );
    return toAccount(row!);
  }

  async find(id: number): Promise<SignInAccount | undefined> {
    const [row] = await this.db.query<Row>(`SELECT ${COLUMNS} FROM sign_in_accounts WHERE id = $1`, [id]);
    return row ? toAccount(row) : undefined;
  }

  static principalOf(account: SignInAccount): Principal {
    return {
      kind: account.method,
      role: account.role,
      accountId: account.id,
      username: account.username,
      ...(account.mediaUser ? { mediaUser: account.mediaUser } : {}),
    };
  }
}
