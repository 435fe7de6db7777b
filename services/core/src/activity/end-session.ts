import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import { MediaServerError } from '../media-server/media-server-error.js';
import type { MediaServerLinks } from '../media-servers/media-server-links.js';
import { clientFor } from '../sync/sync-context.js';

/** How long the message stays on the viewer's screen. */
export const END_SESSION_MESSAGE_MS = 10_000;
export const END_SESSION_HEADER = 'Playback stopped';

/**
 * An administrator ends a live session: the message first (so the viewer reads why), then Playing/Stop on the
 * media server. The activity monitor sees the play end at its next poll and records it as usual. Media-server
 * failures become errors in the API's shape: the session is gone (404), the server refused (502) or is down (503).
 */
export async function endSession(
  links: MediaServerLinks,
  request: { serverId?: string; sessionId: string; message?: string },
  logger?: Logger,
): Promise<{ message: string }> {
  const link = request.serverId ? await links.get(request.serverId) : await links.getDefault();
  if (!link) throw AppError.conflict('No media server is linked yet');
  if (link.archived) throw AppError.conflict(`The media server ${link.name} was removed; it has no live sessions`);
  const client = clientFor(link, logger);
  try {
    if (request.message) {
      await client.sendMessage(request.sessionId, { header: END_SESSION_HEADER, text: request.message, timeoutMs: END_SESSION_MESSAGE_MS });
    }
    await client.stopPlayback(request.sessionId);
  } catch (error) {
    if (!(error instanceof MediaServerError)) throw error;
    if (error.kind === 'not_found') {
      throw new AppError(404, 'session_not_found', `${link.name} has no session ${request.sessionId} any more (it may have just ended)`);
    }
    if (error.kind === 'invalid_request') throw AppError.badRequest(error.message);
    const down = error.kind === 'network' || error.status === 503;
    throw new AppError(down ? 503 : 502, 'media_server_failed', `${link.name} did not end the session: ${error.message}`);
  }
  return { message: `Session ended on ${link.name}` };
}
