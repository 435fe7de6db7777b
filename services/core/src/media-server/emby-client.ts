/**
 * Emby 4.8 (contract §7): everything under /emby, PascalCase parameters, X-Emby-Token, paged envelopes for users
 * and libraries, numeric item ids, no GET /Items/{id}, UserId required on /Shows/{id}/Seasons and no
 * activeWithinSeconds on /Sessions.
 */
import { canonicalMediaServerId } from './ids.js';
import type { UserImageRequest } from './image-request.js';
import { DETAIL_ITEM_FIELDS, itemQueryParams } from './item-query.js';
import {
  MediaServerClient,
  type GetSessionsOptions,
  type MediaServerClientOptions,
  type RequestOptions,
  type SessionMessage,
} from './media-server-client.js';
import { MediaServerError } from './media-server-error.js';
import { pascalCase, type QueryParams } from './query-params.js';
import { itemQueryResultSchema, queryResultSchema, type BaseItemDto } from './schemas/item.js';
import { virtualFolderInfoSchema, type MediaLibrary } from './schemas/library.js';
import type { SessionInfo } from './schemas/session.js';
import { userDtoSchema, type UserDto } from './schemas/user.js';
import { normalizeServerUrl, withEmbyPrefix } from './server-url.js';

const usersSchema = queryResultSchema(userDtoSchema);
const foldersSchema = queryResultSchema(virtualFolderInfoSchema);

export class EmbyClient extends MediaServerClient {
  readonly kind = 'emby' as const;
  private adminUserId: Promise<string> | undefined;

  constructor(options: MediaServerClientOptions) {
    super(options, withEmbyPrefix(normalizeServerUrl(options.url)));
  }

  async getUsers(options: RequestOptions = {}): Promise<UserDto[]> {
    return (await this.getJson('/Users/Query', usersSchema, options)).Items;
  }

  async getLibraries(options: RequestOptions = {}): Promise<MediaLibrary[]> {
    const page = await this.getJson('/Library/VirtualFolders/Query', foldersSchema, options);
    return this.mapLibraries(page.Items, { method: 'GET', path: this.pathOf('/Library/VirtualFolders/Query') });
  }

  /** Emby has no GET /Items/{id} for API keys; /Items?Ids= answers for any item. */
  async getItem(id: string, options: RequestOptions & { userId?: string } = {}): Promise<BaseItemDto> {
    const itemId = canonicalMediaServerId(id, 'item id');
    const page = await this.getJson('/Items', itemQueryResultSchema, {
      query: itemQueryParams({ ids: [itemId], fields: DETAIL_ITEM_FIELDS, userId: options.userId }),
      signal: options.signal,
    });
    const item = page.Items.find((i) => i.Id === itemId);
    if (!item) {
      const path = this.pathOf('/Items');
      throw new MediaServerError('not_found', `GET ${path}: item ${itemId} not found`, { method: 'GET', path, status: 404 });
    }
    return item;
  }

  /** No activeWithinSeconds on Emby: filtered here on LastActivityDate (server clock vs ours; allow for skew). */
  async getSessions(options: GetSessionsOptions = {}): Promise<SessionInfo[]> {
    const sessions = await this.fetchSessions({}, options);
    const within = options.activeWithinSeconds;
    if (within === undefined || within <= 0) return sessions;
    const cutoff = this.now() - within * 1000;
    return sessions.filter((s) => s.LastActivityDate !== undefined && Date.parse(s.LastActivityDate) >= cutoff);
  }

  protected override playstateBody(command: 'Stop'): unknown {
    return { Command: command };
  }

  /** Emby 4.8 reads the message from the query (Text, Header, TimeoutMs), not from a body. */
  protected override messageRequest(message: SessionMessage): { query: QueryParams } {
    return { query: { text: message.text, header: message.header, timeoutMs: message.timeoutMs } };
  }

  protected override paramName(name: string): string {
    return pascalCase(name);
  }

  protected override extraAuthHeaders(apiKey: string): Record<string, string> {
    return { 'X-Emby-Token': apiKey };
  }

  protected override async showsUserQuery(options: RequestOptions): Promise<QueryParams> {
    return { userId: await this.resolveAdminUserId(options) };
  }

  protected userImageRoute(request: UserImageRequest): { path: string; query: QueryParams } {
    return { path: `/Users/${canonicalMediaServerId(request.userId, 'user id')}/Images/Primary`, query: {} };
  }

  /** Some Emby routes insist on a UserId even for API keys; any administrator sees everything. */
  private resolveAdminUserId(options: RequestOptions): Promise<string> {
    this.adminUserId ??= this.getAdminUsers(options).then((admins) => {
      const admin = admins.find((u) => u.Policy?.IsDisabled !== true) ?? admins[0];
      if (!admin) throw new MediaServerError('invalid_response', 'Emby reports no administrator user, which /Shows/{id}/Seasons needs');
      return admin.Id;
    });
    this.adminUserId.catch(() => {
      this.adminUserId = undefined;
    });
    return this.adminUserId;
  }
}
