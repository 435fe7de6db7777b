/** Reelstat's client for Jellyfin and Emby media servers. */
export { MediaServerError, isMediaServerError, type MediaServerErrorKind, type MediaServerErrorDetails } from './media-server-error.js';
export {
  MediaServerClient,
  MEDIA_SERVER_CLIENT_DEFAULTS,
  type MediaServerClientOptions,
  type RequestOptions,
  type ItemPage,
  type GetSessionsOptions,
  type GetItemsByIdsOptions,
  type PlaybackReportingQueryOptions,
  type SessionMessage,
} from './media-server-client.js';
export { JellyfinClient } from './jellyfin-client.js';
export { EmbyClient } from './emby-client.js';
export { createMediaServerClient, type CreateMediaServerClientOptions } from './create-client.js';
export { probeMediaServer, type ProbeResult, type ProbeOptions } from './probe.js';
export { DEFAULT_ITEM_FIELDS, DETAIL_ITEM_FIELDS, type ItemQuery, type ItemPagingOptions } from './item-query.js';
export {
  IMAGE_TYPES,
  IMAGE_FORMATS,
  type ImageType,
  type ImageFormat,
  type ImageSizing,
  type ImageRequest,
  type ItemImageRequest,
  type UserImageRequest,
  type ImageFetchOptions,
  type MediaServerImage,
} from './image-request.js';
export { isMediaServerId, canonicalMediaServerId } from './ids.js';
export { normalizeServerUrl } from './server-url.js';
export { publicSystemInfoSchema, systemInfoSchema, type PublicSystemInfo, type SystemInfo } from './schemas/system-info.js';
export { userDtoSchema, userPolicySchema, type UserDto, type UserPolicy } from './schemas/user.js';
export { virtualFolderInfoSchema, type VirtualFolderInfo, type MediaLibrary } from './schemas/library.js';
export {
  baseItemDtoSchema,
  mediaSourceInfoSchema,
  mediaStreamSchema,
  userItemDataSchema,
  queryResultSchema,
  itemQueryResultSchema,
  type BaseItemDto,
  type MediaSourceInfo,
  type MediaStream,
  type UserItemData,
  type QueryResult,
} from './schemas/item.js';
export {
  sessionInfoSchema,
  playerStateInfoSchema,
  transcodingInfoSchema,
  type SessionInfo,
  type PlayerStateInfo,
  type TranscodingInfo,
} from './schemas/session.js';
export {
  customQueryResponseSchema,
  playbackReportingRecords,
  type CustomQueryResponse,
  type PlaybackReportingResult,
} from './schemas/playback-reporting.js';
