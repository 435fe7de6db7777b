/** Jellyfin 10.x: camelCase parameters, bare arrays for /Users and /Library/VirtualFolders, /Items/{id}. */
import { z } from 'zod';
import { canonicalMediaServerId } from './ids.js';
import type { UserImageRequest } from './image-request.js';
import { MediaServerClient, type GetSessionsOptions, type MediaServerClientOptions, type RequestOptions } from './media-server-client.js';
import type { QueryParams } from './query-params.js';
import { baseItemDtoSchema, type BaseItemDto } from './schemas/item.js';
import { virtualFolderInfoSchema, type MediaLibrary } from './schemas/library.js';
import type { SessionInfo } from './schemas/session.js';
import { userDtoSchema, type UserDto } from './schemas/user.js';
import { normalizeServerUrl } from './server-url.js';

const userListSchema = z.array(userDtoSchema);
const virtualFolderListSchema = z.array(virtualFolderInfoSchema);

export class JellyfinClient extends MediaServerClient {
  readonly kind = 'jellyfin' as const;

  constructor(options: MediaServerClientOptions) {
    super(options, normalizeServerUrl(options.url));
  }

  getUsers(options: RequestOptions = {}): Promise<UserDto[]> {
    return this.getJson('/Users', userListSchema, options);
  }

  async getLibraries(options: RequestOptions = {}): Promise<MediaLibrary[]> {
    const folders = await this.getJson('/Library/VirtualFolders', virtualFolderListSchema, options);
    return this.mapLibraries(folders, { method: 'GET', path: this.pathOf('/Library/VirtualFolders') });
  }

  async getItem(id: string, options: RequestOptions & { userId?: string } = {}): Promise<BaseItemDto> {
    const itemId = canonicalMediaServerId(id, 'item id');
    return await this.getJson(`/Items/${itemId}`, baseItemDtoSchema, {
      query: { userId: options.userId === undefined ? undefined : canonicalMediaServerId(options.userId, 'userId') },
      signal: options.signal,
      notFound: `item ${itemId} not found`,
    });
  }

  getSessions(options: GetSessionsOptions = {}): Promise<SessionInfo[]> {
    return this.fetchSessions({ activeWithinSeconds: options.activeWithinSeconds }, options);
  }

  protected userImageRoute(request: UserImageRequest): { path: string; query: QueryParams } {
    return { path: '/UserImage', query: { userId: canonicalMediaServerId(request.userId, 'user id') } };
  }
}
