import { z } from 'zod';
import { passwordDigest, username } from './common.js';

export const setupStateAnswer = z.object({ state: z.union([z.literal(0), z.literal(1), z.literal(2)]), version: z.string() });
export type SetupStateAnswer = z.infer<typeof setupStateAnswer>;

export const credentialsBody = z.object({ username, password: passwordDigest });
export type CredentialsBody = z.infer<typeof credentialsBody>;

/** Login: clients probing for a session send `{}`; that is a failed login (401), not bad input. */
export const loginBody = credentialsBody.partial();

export const tokenAnswer = z.object({ token: z.string() });
export type TokenAnswer = z.infer<typeof tokenAnswer>;

export const mediaServerLinkBody = z.object({
  JF_HOST: z.string().trim().min(1, 'is required').max(2048),
  JF_API_KEY: z.string().trim().min(1, 'is required').max(256),
});
export type MediaServerLinkBody = z.infer<typeof mediaServerLinkBody>;

export const configSetupAnswer = z.object({ message: z.string(), kind: z.enum(['jellyfin', 'emby']) });

export const accessRole = z.enum(['admin', 'viewer']);
export type AccessRole = z.infer<typeof accessRole>;

/**
 * Sign-in with a Jellyfin or Emby account. The password is the media server's, as typed (it is not the
 * digest the local login sends): Reelstat passes it to the media server once and never stores it.
 */
export const mediaServerLoginBody = z.object({
  username,
  password: z.string().max(1024, 'must be at most 1024 characters'),
});
export type MediaServerLoginBody = z.infer<typeof mediaServerLoginBody>;

export const signInAnswer = z.object({ token: z.string(), role: accessRole });
export type SignInAnswer = z.infer<typeof signInAnswer>;

/** GET /auth/signInMethods: what the login screen offers. */
export const signInMethodsAnswer = z.object({
  /** A media server is linked and sign-in with its accounts is on. */
  mediaServer: z.object({ enabled: z.boolean(), kind: z.enum(['jellyfin', 'emby']).nullable(), name: z.string().nullable() }),
  /** OpenID Connect, when configured (OIDC_* variables): the button's label and where it starts. */
  oidc: z.object({ label: z.string(), startUrl: z.string() }).nullable(),
});
export type SignInMethodsAnswer = z.infer<typeof signInMethodsAnswer>;

/** GET /auth/me: who the token belongs to and what they may see. */
export const meAnswer = z.object({
  username: z.string(),
  role: accessRole,
  method: z.enum(['admin', 'api-key', 'anonymous-admin', 'media-server', 'oidc']),
  /** The media-server user whose statistics are the caller's own (null: not linked to one). */
  mediaUser: z.object({ serverId: z.string(), userId: z.string() }).nullable(),
  /** Whether the home page's server-wide cards are open to the caller (always for admins). */
  serverStats: z.boolean(),
});
export type MeAnswer = z.infer<typeof meAnswer>;

/** The administrator's sign-in settings. */
export const signInSettings = z.object({
  MEDIA_SERVER_SIGN_IN: z.object({
    enabled: z.boolean(),
    /** Media-server user ids allowed to sign in; empty: every user of the linked servers. */
    onlyUsers: z.array(z.string().trim().max(64)).max(1000),
  }),
  VIEWERS_SEE_SERVER_STATS: z.boolean(),
});
export type SignInSettings = z.infer<typeof signInSettings>;
