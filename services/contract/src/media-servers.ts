import { z } from 'zod';

/**
 * Several media servers in one install. Every call that reads or changes one server's data takes an optional
 * `serverId` (in the query, or in the JSON body): absent means the default server, so SPEC clients keep
 * working. A few overviews also take `all`, which sums or lists every linked server.
 */
export const ALL_SERVERS = 'all';

/** A media server's id as Reelstat knows it (the `Id` of GET /api/mediaServers), or `all` where a call allows it. */
export const serverSelector = z
  .string()
  .trim()
  // A UUID is 36 characters: the bound keeps a long value from reaching the pattern (the contract audit checks it).
  .max(64)
  .refine(
    (value) => value === ALL_SERVERS || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
    'must be a media server Id (GET /api/mediaServers) or "all"',
  );

/** The serverId parameter as documented for every scoped call (query string or JSON body). */
export const serverIdParameter = z.object({
  serverId: serverSelector
    .optional()
    .describe('Media server Id (GET /api/mediaServers), in the query or the JSON body; the default server when absent'),
});

export const mediaServerKind = z.enum(['jellyfin', 'emby']);

/** One linked media server as the dashboard shows it. Never its API key. */
export const mediaServerAnswer = z.object({
  Id: z.string(),
  Name: z.string(),
  Kind: mediaServerKind,
  Url: z.string(),
  ExternalUrl: z.string().nullable(),
  Version: z.string().nullable(),
  IsDefault: z.boolean(),
  /** ui: added in Settings; environment: JF_HOST/JF_API_KEY; kubernetes: a MediaStatsServer (read-only). */
  ManagedBy: z.enum(['ui', 'environment', 'kubernetes']),
  /** For a link managed by Kubernetes: its MediaStatsServer as "namespace/name". */
  ManagedRef: z.string().nullable(),
  Suspended: z.boolean(),
  /** Why the stored API key cannot be read (enter it again: ENCRYPTION_KEY changed), else null. */
  ApiKeyError: z.string().nullable().optional(),
});
export const mediaServersAnswer = z.array(mediaServerAnswer);
export type MediaServerAnswer = z.infer<typeof mediaServerAnswer>;

const serverUrl = z.string().trim().min(1, 'is required').max(2048);
const serverApiKey = z.string().trim().min(1, 'is required').max(256);
const serverName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** Adds a server: checked (reachable, key accepted, kind detected) before it is saved. */
export const addMediaServerBody = z.object({
  Url: serverUrl,
  ApiKey: serverApiKey,
  /** Shown in the switcher; the server's own name when absent. */
  Name: serverName.optional(),
});
export type AddMediaServerBody = z.infer<typeof addMediaServerBody>;

/** Edits a server: a changed URL or key is checked again; IsDefault true makes it the default server. */
export const editMediaServerBody = z.object({
  Url: serverUrl.optional(),
  ApiKey: serverApiKey.optional(),
  Name: serverName.optional(),
  IsDefault: z.literal(true).optional(),
});
export type EditMediaServerBody = z.infer<typeof editMediaServerBody>;

export const mediaServerIdParams = z.object({
  id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a media server Id'),
});

/** Test connection: a linked server (by id) or an address and key not saved yet. */
export const testMediaServerBody = z.object({ Url: serverUrl, ApiKey: serverApiKey });
export const testMediaServerAnswer = z.object({
  ok: z.boolean(),
  message: z.string(),
  Kind: mediaServerKind.nullable(),
  Version: z.string().nullable(),
  ServerName: z.string().nullable(),
});
export type TestMediaServerAnswer = z.infer<typeof testMediaServerAnswer>;

export const mediaServerChangeAnswer = z.object({ message: z.string(), server: mediaServerAnswer });
