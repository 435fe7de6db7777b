import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import { canonicalMediaServerId } from '../media-server/ids.js';
import { isMediaServerError } from '../media-server/media-server-error.js';
import type { MediaServerLinks } from '../media-servers/media-server-links.js';
import type { AppSettings } from '../settings/app-settings.js';
import { clientFor } from '../sync/sync-context.js';
import type { AuthService } from './auth-service.js';

/** What the login screen sends for a media-server account. */
export interface MediaServerCredentials {
  username: string;
  /** The media server's password as typed: sent on to the media server only, never stored or logged. */
  password: string;
  /** The linked server to check with; the default server when absent. */
  serverId?: string | undefined;
}

/**
 * Sign-in with a Jellyfin or Emby account (docs/security.md): the media server checks the password
 * (POST /Users/AuthenticateByName); its administrators become Reelstat admins, everyone else a viewer of their
 * own statistics. On by default once a server is linked; MEDIA_SERVER_SIGN_IN turns it off or limits it.
 */
export class MediaServerSignIn {
  constructor(
    private readonly auth: AuthService,
    private readonly links: MediaServerLinks,
    private readonly settings: AppSettings,
    private readonly logger: Logger,
  ) {}

  async signIn(credentials: MediaServerCredentials, address: string): Promise<{ token: string; role: 'admin' | 'viewer' }> {
    const policy = await this.settings.get('MEDIA_SERVER_SIGN_IN');
    if (!policy.enabled) throw AppError.forbidden('Sign-in with a media-server account is turned off; the administrator can turn it on');
    const link = credentials.serverId ? await this.links.get(credentials.serverId) : await this.links.getDefault();
    if (!link) {
      throw credentials.serverId
        ? new AppError(404, 'media_server_not_found', `No media server has the Id ${credentials.serverId}`)
        : AppError.conflict('No media server is linked yet; sign in as the local administrator');
    }
    return this.auth.limitedAttempt('media-server', credentials.username, address, async () => {
      const result = await clientFor(link, this.logger)
        .authenticateByName(credentials.username, credentials.password)
        .catch((error: unknown) => {
          if (isMediaServerError(error) && (error.kind === 'unauthorized' || error.kind === 'forbidden')) {
            this.logger.warn({ address, server: link.name }, 'failed media-server sign-in');
            throw AppError.unauthorized('Invalid username or password');
          }
          const reason = error instanceof Error ? error.message : String(error);
          this.logger.warn({ server: link.name, err: reason }, 'media server unavailable for sign-in');
          throw new AppError(
            503,
            'media_server_unavailable',
            `${link.name} could not check the password (${reason}). Try again later; the local administrator can still sign in.`,
          );
        });
      const userId = canonicalMediaServerId(result.User.Id, 'user id');
      if (policy.onlyUsers.length > 0 && !policy.onlyUsers.some((id) => id.replace(/-/g, '').toLowerCase() === userId))
        throw AppError.forbidden('This account may not sign in to Reelstat; ask the administrator');
      return this.auth.signInExternal({
        method: 'media-server',
        subject: `${link.id}:${userId}`,
        username: result.User.Name ?? credentials.username,
        role: result.User.Policy?.IsAdministrator === true ? 'admin' : 'viewer',
        mediaUser: { serverId: link.id, userId },
      });
    });
  }
}
