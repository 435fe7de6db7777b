/** Builds wire DTOs (BaseItemDto, UserDto, MediaSourceInfo …) from the internal model, only as far as asked. */
import { blurhash, imageTag, naturalSize } from './images.js';
import { mediaStreams } from './library/media.js';
import type { Flavor } from './library/generate.js';
import type { Store } from './library/store.js';
import type { SimItem, SimUser, UserItemData } from './library/types.js';
import { formatDate } from './wire.js';

export interface DtoContext {
  flavor: Flavor;
  serverId: string;
  store: Store;
  /** Lower-cased `fields` values. */
  fields: ReadonlySet<string>;
  /** Single-item endpoints return every field. */
  allFields?: boolean;
  user?: SimUser;
  enableUserData: boolean;
  enableImages: boolean;
  /** False when the server sends no ImageBlurHashes (simulator option blurHashes). */
  blurHashes?: boolean;
  imageTypeLimit?: number;
  /** Fields the session's NowPlayingItem never carries. */
  exclude?: ReadonlySet<string>;
}

/** Keys that exist only in Jellyfin's BaseItemDto; removed from Emby answers. */
const JELLYFIN_ONLY = [
  'ImageBlurHashes',
  'VideoType',
  'HasSubtitles',
  'IsHD',
  'CumulativeRunTimeTicks',
  'DateLastMediaAdded',
  'EpisodeCount',
  'MediaSourceCount',
  'PlayAccess',
  'EnableMediaSourceDisplay',
  'TrailerCount',
  'ArtistCount',
  'ParentPrimaryImageItemId',
  'ParentPrimaryImageTag',
  'SeriesThumbImageTag',
  'NormalizationGain',
  'LocationTypeVirtualOnly',
];

const EXCLUDED_FOR_SESSION = new Set([
  'mediasources',
  'people',
  'sortname',
  'tags',
  'candelete',
  'candownload',
  'childcount',
  'recursiveitemcount',
  'etag',
  'datelastmediaadded',
  'mediasourcecount',
  'userdata',
]);
export const SESSION_EXCLUDE: ReadonlySet<string> = EXCLUDED_FOR_SESSION;

function want(ctx: DtoContext, field: string): boolean {
  const f = field.toLowerCase();
  if (ctx.exclude?.has(f)) return false;
  return ctx.allFields === true || ctx.fields.has(f);
}

export function itemTag(item: SimItem, type: string): string {
  return imageTag(item.id, type, item.revision);
}

function imageBlock(item: SimItem, ctx: DtoContext, dto: Record<string, unknown>): void {
  if (!ctx.enableImages) return;
  const limit = ctx.imageTypeLimit ?? Number.POSITIVE_INFINITY;
  const tags: Record<string, string> = {};
  const hashes: Record<string, Record<string, string>> = {};
  const backdrops: string[] = [];
  for (const type of item.images) {
    const tag = itemTag(item, type);
    const [w, h] = naturalSize(type);
    if (type === 'Backdrop') {
      if (backdrops.length < limit) backdrops.push(tag);
    } else if (Object.keys(tags).length < limit) {
      tags[type] = tag;
    } else continue;
    (hashes[type] ??= {})[tag] = blurhash(`${item.id}|${type}|${item.revision}`, w, h);
  }
  dto.ImageTags = tags;
  dto.BackdropImageTags = backdrops;
  if (Object.keys(hashes).length && ctx.blurHashes !== false) dto.ImageBlurHashes = hashes;
}

function parentImages(item: SimItem, ctx: DtoContext, dto: Record<string, unknown>): void {
  if (!ctx.enableImages) return;
  const store = ctx.store;
  const series = item.seriesId ? store.get(item.seriesId) : undefined;
  if (series?.images.includes('Primary')) dto.SeriesPrimaryImageTag = itemTag(series, 'Primary');
  if (series?.images.includes('Thumb') && ctx.flavor === 'jellyfin') dto.SeriesThumbImageTag = itemTag(series, 'Thumb');
  const backdropOwner = series ?? (item.albumId ? undefined : undefined);
  if (backdropOwner?.images.includes('Backdrop')) {
    dto.ParentBackdropItemId = backdropOwner.id;
    dto.ParentBackdropImageTags = [itemTag(backdropOwner, 'Backdrop')];
  }
  if (series?.images.includes('Logo')) {
    dto.ParentLogoItemId = series.id;
    dto.ParentLogoImageTag = itemTag(series, 'Logo');
  }
  if (item.albumId) {
    const album = store.get(item.albumId);
    if (album?.images.includes('Primary')) dto.AlbumPrimaryImageTag = itemTag(album, 'Primary');
  }
}

export function userDataDto(data: UserItemData | undefined, item: SimItem, ctx: DtoContext): Record<string, unknown> {
  const d = data ?? { playCount: 0, played: false, isFavorite: false, playbackPositionTicks: 0 };
  const out: Record<string, unknown> = {
    PlaybackPositionTicks: d.playbackPositionTicks,
    PlayCount: d.playCount,
    IsFavorite: d.isFavorite,
    Played: d.played,
    Key: item.providerIds?.Imdb ?? item.id,
    ItemId: item.id,
  };
  if (d.lastPlayedDate !== undefined) out.LastPlayedDate = formatDate(d.lastPlayedDate);
  if (d.playbackPositionTicks > 0 && item.runTimeTicks) out.PlayedPercentage = (d.playbackPositionTicks / item.runTimeTicks) * 100;
  if (item.kind === 'Series' || item.kind === 'Season') {
    const eps = ctx.store.descendants(item.id).filter((id) => ctx.store.get(id)?.kind === 'Episode');
    const played = ctx.user ? eps.filter((id) => ctx.store.userDataFor(ctx.user!.id, id)?.played).length : 0;
    out.UnplayedItemCount = eps.length - played;
  }
  if (ctx.flavor === 'emby') out.ServerId = ctx.serverId;
  return out;
}

export function mediaSourceDto(item: SimItem, ctx: Pick<DtoContext, 'flavor'>): Record<string, unknown> | undefined {
  const m = item.media;
  if (!m) return undefined;
  const streams = mediaStreams(m, item.path ?? '', ctx.flavor);
  const defaultAudio = streams.find((s) => s.Type === 'Audio');
  const defaultSub = streams.find((s) => s.Type === 'Subtitle' && s.IsForced === true);
  const name = (item.path ?? item.name).replace(/^.*\//, '').replace(/\.[^.]+$/, '');
  return {
    Protocol: 'File',
    Id: item.id,
    Path: item.path,
    Type: 'Default',
    Container: m.container,
    Size: m.size,
    Name: name,
    IsRemote: false,
    ETag: imageTag(item.id, 'etag', item.revision),
    RunTimeTicks: item.runTimeTicks,
    ReadAtNativeFramerate: false,
    IgnoreDts: false,
    IgnoreIndex: false,
    GenPtsInput: false,
    SupportsTranscoding: true,
    SupportsDirectStream: true,
    SupportsDirectPlay: true,
    IsInfiniteStream: false,
    UseMostCompatibleTranscodingProfile: false,
    RequiresOpening: false,
    RequiresClosing: false,
    RequiresLooping: false,
    SupportsProbing: true,
    VideoType: m.video ? 'VideoFile' : undefined,
    MediaStreams: streams,
    MediaAttachments: [],
    Formats: [],
    Bitrate: m.bitrate,
    DefaultAudioStreamIndex: defaultAudio?.Index,
    DefaultSubtitleStreamIndex: defaultSub?.Index,
    HasSegments: ctx.flavor === 'jellyfin' ? false : undefined,
  };
}

function childCounts(item: SimItem, store: Store): { child: number; recursive: number } {
  if (item.memberIds) return { child: item.memberIds.length, recursive: item.memberIds.length };
  const child = store.childIds(item.id).size;
  let recursive: number;
  if (item.kind === 'CollectionFolder') {
    recursive = 0;
    for (const id of store.byLibrary.get(item.id) ?? []) if (!store.get(id)?.isFolder) recursive++;
  } else {
    recursive = store.descendants(item.id).filter((id) => !store.get(id)?.isFolder).length;
  }
  return { child, recursive };
}

export function itemDto(item: SimItem, ctx: DtoContext): Record<string, unknown> {
  const store = ctx.store;
  const jf = ctx.flavor === 'jellyfin';
  const dto: Record<string, unknown> = { Name: item.name, ServerId: ctx.serverId, Id: item.id };
  if (want(ctx, 'Etag')) dto.Etag = imageTag(item.id, 'etag', item.revision);
  if (want(ctx, 'DateCreated')) dto.DateCreated = formatDate(item.dateCreated);
  if (want(ctx, 'CanDelete')) dto.CanDelete = ctx.user?.isAdministrator ?? true;
  if (want(ctx, 'CanDownload')) dto.CanDownload = !item.isFolder;
  if (item.extraType) dto.ExtraType = item.extraType;
  if (want(ctx, 'SortName')) dto.SortName = item.sortName;
  if (item.premiereDate !== undefined) dto.PremiereDate = formatDate(item.premiereDate);
  if (want(ctx, 'ExternalUrls') && item.providerIds?.Imdb)
    dto.ExternalUrls = [{ Name: 'IMDb', Url: `https://www.imdb.com/title/${item.providerIds.Imdb}` }];
  if (item.media && want(ctx, 'MediaSources')) dto.MediaSources = [mediaSourceDto(item, ctx)];
  if (item.criticRating !== undefined) dto.CriticRating = item.criticRating;
  if (item.media) dto.Container = item.media.container;
  if (item.officialRating) dto.OfficialRating = item.officialRating;
  if (want(ctx, 'Path') && item.path) dto.Path = item.path;
  if (want(ctx, 'Overview') && item.overview) dto.Overview = item.overview;
  if (want(ctx, 'Taglines')) dto.Taglines = [];
  if (want(ctx, 'Genres')) {
    dto.Genres = item.genres;
    dto.GenreItems = item.genres.map((g) => ({ Name: g, Id: jf ? imageTag('genre', g, 0) : genreNumericId(g) }));
  }
  if (item.communityRating !== undefined) dto.CommunityRating = item.communityRating;
  if (want(ctx, 'CumulativeRunTimeTicks') && item.isFolder) dto.CumulativeRunTimeTicks = item.runTimeTicks ?? 0;
  if (item.runTimeTicks !== undefined) dto.RunTimeTicks = item.runTimeTicks;
  if (want(ctx, 'PlayAccess')) dto.PlayAccess = 'Full';
  if (item.productionYear !== undefined) dto.ProductionYear = item.productionYear;
  if (item.indexNumber !== undefined) dto.IndexNumber = item.indexNumber;
  if (item.parentIndexNumber !== undefined) dto.ParentIndexNumber = item.parentIndexNumber;
  if (want(ctx, 'RemoteTrailers')) dto.RemoteTrailers = [];
  if (want(ctx, 'ProviderIds')) dto.ProviderIds = item.providerIds ?? {};
  dto.IsFolder = item.isFolder;
  if (want(ctx, 'ParentId') && item.parentId) dto.ParentId = item.parentId;
  dto.Type = item.kind === 'PlaylistsFolder' ? 'ManualPlaylistsFolder' : item.kind;
  if (want(ctx, 'People')) dto.People = [];
  if (want(ctx, 'Studios'))
    dto.Studios = (item.studios ?? []).map((s) => ({ Name: s, Id: jf ? imageTag('studio', s, 0) : genreNumericId(s) }));
  if (item.seriesName) dto.SeriesName = item.seriesName;
  if (item.seriesId) dto.SeriesId = item.seriesId;
  if (item.seasonId) dto.SeasonId = item.seasonId;
  if (item.seasonName && item.kind === 'Episode') dto.SeasonName = item.seasonName;
  if (want(ctx, 'LocalTrailerCount')) dto.LocalTrailerCount = item.localTrailerIds?.length ?? 0;
  if (
    ctx.user &&
    ctx.enableUserData &&
    !ctx.exclude?.has('userdata') &&
    item.kind !== 'CollectionFolder' &&
    item.kind !== 'PlaylistsFolder'
  ) {
    dto.UserData = userDataDto(store.userDataFor(ctx.user.id, item.id), item, ctx);
  }
  if (item.isFolder && (want(ctx, 'ChildCount') || want(ctx, 'RecursiveItemCount'))) {
    const c = childCounts(item, store);
    if (want(ctx, 'ChildCount')) dto.ChildCount = c.child;
    if (want(ctx, 'RecursiveItemCount')) dto.RecursiveItemCount = c.recursive;
  }
  if (want(ctx, 'SpecialFeatureCount')) dto.SpecialFeatureCount = 0;
  if (want(ctx, 'DisplayPreferencesId')) dto.DisplayPreferencesId = item.id;
  if (item.status) dto.Status = item.status;
  if (item.kind === 'Series' && jf) dto.AirDays = [];
  if (want(ctx, 'Tags')) dto.Tags = [];
  if (want(ctx, 'PrimaryImageAspectRatio') && item.images.includes('Primary')) {
    const [w, h] = naturalSize('Primary');
    dto.PrimaryImageAspectRatio = item.kind === 'Episode' ? 16 / 9 : item.kind === 'MusicAlbum' || item.kind === 'MusicArtist' ? 1 : w / h;
  }
  if (item.artists) dto.Artists = item.artists;
  if (item.artistIds && item.artists) dto.ArtistItems = item.artists.map((n, i) => ({ Name: n, Id: item.artistIds?.[i] }));
  if (item.album) dto.Album = item.album;
  // Mixed libraries have no collection type on the wire (BaseItemDto.CollectionType has no "mixed").
  if (item.collectionType && item.collectionType !== 'mixed') dto.CollectionType = item.collectionType;
  if (item.albumId) dto.AlbumId = item.albumId;
  if (item.albumArtist) {
    dto.AlbumArtist = item.albumArtist;
    dto.AlbumArtists = [{ Name: item.albumArtist, Id: item.artistIds?.[0] }];
  }
  if (item.media && want(ctx, 'MediaStreams')) dto.MediaStreams = mediaStreams(item.media, item.path ?? '', ctx.flavor);
  if (item.media?.video) {
    dto.VideoType = 'VideoFile';
    dto.HasSubtitles = item.media.subtitles.length > 0;
    if (want(ctx, 'Width')) dto.Width = item.media.video.width;
    if (want(ctx, 'Height')) dto.Height = item.media.video.height;
    if (want(ctx, 'IsHD')) dto.IsHD = item.media.video.height >= 720;
  }
  if (want(ctx, 'MediaSourceCount') && item.media) dto.MediaSourceCount = 1;
  if (item.endDate !== undefined) dto.EndDate = formatDate(item.endDate);
  if (want(ctx, 'DateLastMediaAdded') && item.isFolder) dto.DateLastMediaAdded = formatDate(item.dateLastSaved);
  imageBlock(item, ctx, dto);
  parentImages(item, ctx, dto);
  dto.LocationType = 'FileSystem';
  dto.MediaType = item.mediaType;
  if (want(ctx, 'LockData')) {
    dto.LockData = false;
    dto.LockedFields = [];
  }
  if (!jf) for (const k of JELLYFIN_ONLY) delete dto[k];
  return dto;
}

function genreNumericId(name: string): number {
  let h = 7;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 1_000_000;
  return 100_000 + h;
}

export interface UserDtoContext {
  flavor: Flavor;
  serverId: string;
  serverName: string;
  libraryOrder: string[];
}

export function userDto(u: SimUser, ctx: UserDtoContext): Record<string, unknown> {
  const jf = ctx.flavor === 'jellyfin';
  const policy: Record<string, unknown> = {
    IsAdministrator: u.isAdministrator,
    IsHidden: u.isHidden,
    EnableCollectionManagement: u.isAdministrator,
    EnableSubtitleManagement: u.isAdministrator,
    EnableLyricManagement: jf ? u.isAdministrator : undefined,
    IsDisabled: u.isDisabled,
    BlockedTags: [],
    AllowedTags: jf ? [] : undefined,
    EnableUserPreferenceAccess: true,
    AccessSchedules: [],
    BlockUnratedItems: [],
    EnableRemoteControlOfOtherUsers: u.isAdministrator,
    EnableSharedDeviceControl: true,
    EnableRemoteAccess: true,
    EnableLiveTvManagement: u.isAdministrator,
    EnableLiveTvAccess: true,
    EnableMediaPlayback: true,
    EnableAudioPlaybackTranscoding: true,
    EnableVideoPlaybackTranscoding: true,
    EnablePlaybackRemuxing: true,
    ForceRemoteSourceTranscoding: jf ? false : undefined,
    EnableContentDeletion: u.isAdministrator,
    EnableContentDeletionFromFolders: [],
    EnableContentDownloading: true,
    EnableSyncTranscoding: true,
    EnableMediaConversion: true,
    EnabledDevices: [],
    EnableAllDevices: true,
    EnabledChannels: [],
    EnableAllChannels: true,
    EnabledFolders: u.enabledFolders,
    EnableAllFolders: u.enableAllFolders,
    InvalidLoginAttemptCount: 0,
    LoginAttemptsBeforeLockout: -1,
    MaxActiveSessions: 0,
    EnablePublicSharing: true,
    BlockedMediaFolders: [],
    BlockedChannels: [],
    RemoteClientBitrateLimit: 0,
    AuthenticationProviderId: 'Jellyfin.Server.Implementations.Users.DefaultAuthenticationProvider',
    PasswordResetProviderId: 'Jellyfin.Server.Implementations.Users.DefaultPasswordResetProvider',
    SyncPlayAccess: jf ? 'CreateAndJoinGroups' : undefined,
  };
  if (!jf) {
    delete policy.AuthenticationProviderId;
    delete policy.PasswordResetProviderId;
  }
  const dto: Record<string, unknown> = {
    Name: u.name,
    ServerId: ctx.serverId,
    Id: u.id,
    PrimaryImageTag: u.hasImage ? imageTag(u.id, 'user', u.imageRevision) : undefined,
    HasPassword: u.password !== '',
    HasConfiguredPassword: u.password !== '',
    HasConfiguredEasyPassword: false,
    EnableAutoLogin: false,
    LastLoginDate: u.lastLoginDate !== undefined ? formatDate(u.lastLoginDate) : undefined,
    LastActivityDate: u.lastActivityDate !== undefined ? formatDate(u.lastActivityDate) : undefined,
    Configuration: {
      AudioLanguagePreference: '',
      PlayDefaultAudioTrack: true,
      SubtitleLanguagePreference: '',
      DisplayMissingEpisodes: false,
      GroupedFolders: [],
      SubtitleMode: 'Default',
      DisplayCollectionsView: false,
      EnableLocalPassword: false,
      OrderedViews: ctx.libraryOrder,
      LatestItemsExcludes: [],
      MyMediaExcludes: [],
      HidePlayedInLatest: true,
      RememberAudioSelections: true,
      RememberSubtitleSelections: true,
      EnableNextEpisodeAutoPlay: true,
    },
    Policy: policy,
  };
  if (!jf) {
    dto.DateCreated = formatDate(u.dateCreated);
    dto.Prefix = u.name.slice(0, 1).toUpperCase();
  }
  return dto;
}
