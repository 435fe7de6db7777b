import { z } from 'zod';
import { passwordDigest } from './common.js';

export const preferredAdmin = z.object({ userid: z.string().trim().min(1).max(64), username: z.string().trim().min(1).max(256) });
export type PreferredAdmin = z.infer<typeof preferredAdmin>;

/** SPEC.md §3 Config: what the dashboard knows of the installation. Never secrets. */
export const configAnswer = z.object({
  JF_HOST: z.string().nullable(),
  APP_USER: z.string().nullable(),
  REQUIRE_LOGIN: z.boolean(),
  IS_JELLYFIN: z.boolean(),
  /** Who manages the media-server link: the settings screen, environment variables, or Kubernetes (read-only). */
  MANAGED_BY: z.enum(['ui', 'environment', 'kubernetes']).nullable(),
  /** For a link managed by Kubernetes: its MediaStatsServer as "namespace/name". */
  MANAGED_REF: z.string().nullable().optional(),
  /** Why the media server's stored API key cannot be read (enter it again), else null. */
  MEDIA_SERVER_KEY_ERROR: z.string().nullable().optional(),
  settings: z.object({
    EXTERNAL_URL: z.string(),
    ServerID: z.string().nullable(),
    preferred_admin: z.object({ userid: z.string(), username: z.string() }).nullable(),
    /** MaxMind account id when the GeoLite2 web service is configured (not a secret; the licence key is). */
    GEOLITE_ACCOUNT_ID: z.string().nullable(),
    /** True when IP addresses can be located (web service or a local GeoLite2 database). */
    GEOLOCATION_ENABLED: z.boolean(),
  }),
});
export type ConfigAnswer = z.infer<typeof configAnswer>;

export const externalUrlBody = z.object({
  ExternalUrl: z
    .string()
    .trim()
    .max(2048)
    .refine((value) => value === '' || /^https?:\/\/[^\s]+$/.test(value), 'must be an http(s) URL, or empty'),
});

export const adminUsersAnswer = z.array(z.object({ Id: z.string(), Name: z.string() }));
export type AdminUser = z.infer<typeof adminUsersAnswer>[number];

export const updateCredentialsBody = z.object({
  username: z.string().max(100),
  current_password: passwordDigest.optional().or(z.literal('')),
  new_password: passwordDigest.optional().or(z.literal('')),
});
export type UpdateCredentialsBody = z.infer<typeof updateCredentialsBody>;

export const updateCredentialsAnswer = z.object({ isValid: z.boolean(), errorMessage: z.string(), token: z.string().optional() });
export type UpdateCredentialsAnswer = z.infer<typeof updateCredentialsAnswer>;

export const requireLoginBody = z.object({ REQUIRE_LOGIN: z.boolean() });

export const updateInfoAnswer = z.object({
  current_version: z.string(),
  latest_version: z.string(),
  update_available: z.boolean(),
  message: z.string(),
});
export type UpdateInfoAnswer = z.infer<typeof updateInfoAnswer>;
