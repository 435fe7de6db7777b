/** UserDto with the policy flags Reelstat reads (admin, hidden, disabled, library access). */
import { z } from 'zod';
import { int, wireDate } from './wire.js';

export const userPolicySchema = z.object({
  IsAdministrator: z.boolean(),
  IsHidden: z.boolean().optional(),
  IsDisabled: z.boolean().optional(),
  EnableRemoteAccess: z.boolean().optional(),
  EnableMediaPlayback: z.boolean().optional(),
  EnableVideoPlaybackTranscoding: z.boolean().optional(),
  EnableAudioPlaybackTranscoding: z.boolean().optional(),
  EnablePlaybackRemuxing: z.boolean().optional(),
  EnableAllFolders: z.boolean().optional(),
  EnabledFolders: z.array(z.string()).optional(),
  MaxActiveSessions: int.optional(),
  RemoteClientBitrateLimit: int.optional(),
});
export type UserPolicy = z.infer<typeof userPolicySchema>;

export const userDtoSchema = z.object({
  Id: z.string().min(1),
  Name: z.string().optional(),
  ServerId: z.string().optional(),
  PrimaryImageTag: z.string().optional(),
  HasPassword: z.boolean().optional(),
  HasConfiguredPassword: z.boolean().optional(),
  EnableAutoLogin: z.boolean().optional(),
  LastLoginDate: wireDate.optional(),
  LastActivityDate: wireDate.optional(),
  /** Emby only. */
  DateCreated: wireDate.optional(),
  Policy: userPolicySchema.optional(),
});
export type UserDto = z.infer<typeof userDtoSchema>;

/** POST /Users/AuthenticateByName: the fields a sign-in reads (the session part is ignored). */
export const authenticationResultSchema = z.object({
  User: userDtoSchema,
  AccessToken: z.string().min(1),
  ServerId: z.string().optional(),
});
export type AuthenticationResult = z.infer<typeof authenticationResultSchema>;
