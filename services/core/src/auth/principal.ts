/** What a signed-in person may do: everything, or their own statistics (docs/security.md, "Roles"). */
export type AccessRole = 'admin' | 'viewer';

/** How the caller proved who they are. */
export type PrincipalKind = 'admin' | 'api-key' | 'anonymous-admin' | 'media-server' | 'oidc';

/** The media-server user whose statistics are a person's own. */
export interface MediaUserRef {
  serverId: string;
  userId: string;
}

/** Who is calling, resolved once per request by the authentication middleware. */
export interface Principal {
  kind: PrincipalKind;
  role: AccessRole;
  /** admin_accounts.id for the local administrator, sign_in_accounts.id for media-server and OIDC sign-ins. */
  accountId: number | undefined;
  username: string;
  /** Set for media-server sign-ins, and for OIDC identities linked to a media-server user by a claim. */
  mediaUser?: MediaUserRef;
}

/** The name the principal had when there was only the administrator; kept so callers need not change. */
export type AdminPrincipal = Principal;
