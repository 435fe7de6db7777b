import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import { MediaServerError, probeMediaServer } from '../media-server/index.js';
import type { MediaServerLink, MediaServerLinks } from '../media-servers/media-server-links.js';

/**
 * Links the default media server after checking it: reachable, API key accepted, kind detected
 * (Jellyfin or Emby). Failures map to SPEC.md §8's setup catalogue: 401 for a rejected key, 404 for a URL
 * where no media server answers, 502 when nothing answers at all or the server fails.
 */
export async function linkMediaServer(
  links: MediaServerLinks,
  input: { url: string; apiKey: string; managedBy?: MediaServerLink['managedBy'] },
  logger: Logger,
): Promise<MediaServerLink> {
  const probe = await checkMediaServer(input.url, input.apiKey, logger);
  const { url } = probe;
  const link = await links.saveDefault({
    name: probe.serverName || (probe.kind === 'emby' ? 'Emby' : 'Jellyfin'),
    kind: probe.kind,
    url,
    apiKey: input.apiKey,
    remoteServerId: probe.serverId,
    version: probe.version,
    managedBy: input.managedBy ?? 'ui',
  });
  logger.info({ kind: probe.kind, version: probe.version, url }, 'media server linked');
  return link;
}

/**
/**
 * The probe of setup, for any server: reachable, key accepted, kind detected. Answers the probe (its cleaned
 * URL, kind, version, name, remote id) or throws the AppError of SPEC.md §8's setup catalogue.
 */
export async function checkMediaServer(url: string, apiKey: string, logger?: Logger) {
  // The probe cleans the address (scheme, trailing slash, Emby's /emby) and refuses unusable ones.
  const typed = url.trim();
  try {
    return await probeMediaServer(typed, apiKey);
  } catch (error) {
    throw toSetupError(error, typed, logger);
  }
}

/**
 * The setup answer says what the user can act on (wrong key, not a media server, unreachable, server error)
 * and echoes only the address they typed. The low-level cause (refused, timed out, DNS, TLS, the status or body
 * another host sent) goes to the log, not to the caller: the answer must not turn setup into a probe of what
 * answers where on the network.
 */
function toSetupError(error: unknown, url: string, logger?: Logger): AppError {
  logger?.warn(
    { url, err: (error as Error)?.message, kind: error instanceof MediaServerError ? error.kind : 'unknown' },
    'media server check failed',
  );
  if (!(error instanceof MediaServerError))
    return new AppError(502, 'media_server_error', `Could not check the media server at ${url}; the cause is in Reelstat's log`);
  switch (error.kind) {
    case 'unauthorized':
    case 'forbidden':
      return new AppError(401, 'media_server_unauthorized', 'The media server rejected the API key');
    case 'not_found':
    case 'invalid_response':
      return new AppError(
        404,
        'media_server_not_found',
        `No Jellyfin or Emby server answers at ${url}: check the address and port (Jellyfin and Emby use 8096 by default)`,
      );
    case 'invalid_request':
      // Our own check of the address the user typed: nothing from the network.
      return AppError.badRequest(`JF_HOST must be a media server address such as http://192.168.1.10:8096 (${error.message})`);
    case 'network':
      return new AppError(
        502,
        'media_server_unreachable',
        `Could not reach the media server at ${url}: check the address, that the server is running, and that Reelstat's host can reach it`,
      );
    default:
      return new AppError(502, 'media_server_error', `The media server at ${url} answered with an error; check its log`);
  }
}
