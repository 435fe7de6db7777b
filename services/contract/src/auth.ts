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
