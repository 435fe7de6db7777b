/**
 * First-run check of a server address and API key: which server answers (Jellyfin or Emby), which version,
 * and whether the key is accepted with administrator rights. Used by setup before anything is stored.
 */
import { createMediaServerClient } from './create-client.js';
import { JellyfinClient } from './jellyfin-client.js';
import type { MediaServerClientOptions, MediaServerKind, RequestOptions } from './media-server-client.js';
import { MediaServerError } from './media-server-error.js';
import type { PublicSystemInfo } from './schemas/system-info.js';
import { normalizeServerUrl, withEmbyPrefix, withoutEmbyPrefix } from './server-url.js';

export interface ProbeResult {
  kind: MediaServerKind;
  serverName: string;
  version: string;
  /** The server's own id (PublicSystemInfo.Id). */
  serverId: string;
  /** "Jellyfin Server"; Emby does not report one, so "Emby Server". */
  productName: string;
  /** The normalized address to store and pass to createMediaServerClient (without Emby's /emby suffix). */
  url: string;
}

export interface ProbeOptions extends Omit<MediaServerClientOptions, 'url' | 'apiKey'>, RequestOptions {
  /** Also check that the key may list libraries (administrator); default true. */
  requireAdmin?: boolean;
}

/** Setup should answer quickly: short timeout and one retry unless the caller says otherwise. */
const PROBE_DEFAULTS = { timeoutMs: 10_000, retries: 1 } as const;

export async function probeMediaServer(url: string, apiKey: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const { requireAdmin = true, signal, ...clientOptions } = options;
  const merged = { ...PROBE_DEFAULTS, ...clientOptions, apiKey };
  const base = normalizeServerUrl(url);
  const { info, answeredAt } = await detect(base, merged, signal);
  const kind = detectKind(info);
  const serverUrl = kind === 'emby' ? withoutEmbyPrefix(answeredAt) : answeredAt;
  const client = createMediaServerClient({ ...merged, kind, url: serverUrl });
  // /System/Info needs a valid token: 401 here means the key is wrong.
  await client.getSystemInfo({ signal });
  if (requireAdmin) await client.getLibraries({ signal });
  return {
    kind,
    serverName: info.ServerName ?? '',
    version: info.Version,
    serverId: info.Id,
    productName: info.ProductName ?? (kind === 'emby' ? 'Emby Server' : 'Jellyfin Server'),
    url: serverUrl,
  };
}

/**
 * Reads /System/Info/Public at the address as given, then with /emby appended (Emby's conventional base), and
 * keeps the first that answers like a media server. Unreachable or unauthorized answers stop at once.
 */
async function detect(
  base: string,
  options: Omit<MediaServerClientOptions, 'url'>,
  signal: AbortSignal | undefined,
): Promise<{ info: PublicSystemInfo; answeredAt: string }> {
  const candidates = [...new Set([base, withEmbyPrefix(base)])];
  const misses: MediaServerError[] = [];
  for (const candidate of candidates) {
    try {
      const info = await new JellyfinClient({ ...options, url: candidate }).getPublicSystemInfo({ signal });
      return { info, answeredAt: candidate };
    } catch (error) {
      if (error instanceof MediaServerError && (error.kind === 'not_found' || error.kind === 'invalid_response')) {
        misses.push(error);
        continue;
      }
      throw error;
    }
  }
  const first = misses[0] as MediaServerError;
  const kind = misses.some((e) => e.kind === 'invalid_response') ? 'invalid_response' : 'not_found';
  throw new MediaServerError(kind, `No Jellyfin or Emby server answers at ${base}: ${misses.map((e) => e.message).join('; ')}`, {
    status: first.status,
    method: first.method,
    path: first.path,
    cause: first,
  });
}

/** Jellyfin names itself in ProductName; Emby's PublicSystemInfo has none (contract §7.3). */
function detectKind(info: PublicSystemInfo): MediaServerKind {
  const product = info.ProductName?.toLowerCase() ?? '';
  if (product.includes('jellyfin')) return 'jellyfin';
  if (product.includes('emby') || !product) return 'emby';
  // Another product that speaks the same API: follow the major version (Emby 4.x, Jellyfin 10.x and later).
  return /^4\./.test(info.Version) ? 'emby' : 'jellyfin';
}
