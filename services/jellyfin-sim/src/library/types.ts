/** The simulator's internal model of a media library. Wire DTOs are built from it lazily (see ../dto.ts). */

export type ItemKind =
  | 'CollectionFolder'
  | 'PlaylistsFolder'
  | 'Movie'
  | 'Series'
  | 'Season'
  | 'Episode'
  | 'MusicArtist'
  | 'MusicAlbum'
  | 'Audio'
  | 'BoxSet'
  | 'Playlist'
  | 'Trailer'
  | 'Video';

export type CollectionType = 'movies' | 'tvshows' | 'music' | 'mixed' | 'boxsets' | 'playlists';

export type ExtraType = 'ThemeSong' | 'ThemeVideo' | 'Trailer';

export type ImageKind = 'Primary' | 'Backdrop' | 'Logo' | 'Thumb' | 'Banner' | 'Art' | 'Disc';

export interface VideoProfile {
  codec: string;
  codecTag?: string;
  profile: string;
  level: number;
  width: number;
  height: number;
  bitDepth: number;
  pixelFormat: string;
  /** Jellyfin VideoRange / VideoRangeType; Emby uses ExtendedVideoType instead. */
  range: 'SDR' | 'HDR';
  rangeType: string;
  doviTitle?: string;
  doviProfile?: number;
  colorTransfer?: string;
  colorPrimaries?: string;
  colorSpace?: string;
  fps: number;
  interlaced?: boolean;
  hdr10Plus?: boolean;
}

export interface AudioProfile {
  codec: string;
  codecTag?: string;
  profile?: string;
  channels: number;
  layout: string;
  bitrate: number;
  sampleRate: number;
  bitDepth?: number;
  spatial?: 'DolbyAtmos' | 'DTSX';
}

export interface SubtitleTrack {
  codec: string;
  language: string;
  forced: boolean;
  hearingImpaired: boolean;
  external: boolean;
}

/** Compact media description; streams are expanded only when a DTO asks for them. */
export interface MediaInfo {
  container: string;
  video?: VideoProfile;
  audio: { profile: AudioProfile; language: string; title?: string }[];
  subtitles: SubtitleTrack[];
  /** bits per second, whole file */
  bitrate: number;
  size: number;
}

export interface SimItem {
  id: string;
  kind: ItemKind;
  name: string;
  sortName: string;
  /** Parent in the browse tree (library folder, series, season, artist, album …). */
  parentId?: string;
  /** The CollectionFolder this item lives in. */
  libraryId?: string;
  /** For extras (theme songs/videos, local trailers): the item that owns them. Extras are not children. */
  ownerId?: string;
  extraType?: ExtraType;
  collectionType?: CollectionType;
  isFolder: boolean;
  mediaType: 'Video' | 'Audio' | 'Unknown';
  seriesId?: string;
  seriesName?: string;
  seasonId?: string;
  seasonName?: string;
  albumId?: string;
  album?: string;
  albumArtist?: string;
  artistIds?: string[];
  artists?: string[];
  indexNumber?: number;
  parentIndexNumber?: number;
  runTimeTicks?: number;
  productionYear?: number;
  premiereDate?: number;
  endDate?: number;
  status?: 'Continuing' | 'Ended';
  dateCreated: number;
  dateLastSaved: number;
  genres: string[];
  studios?: string[];
  overview?: string;
  officialRating?: string;
  communityRating?: number;
  criticRating?: number;
  providerIds?: Record<string, string>;
  path?: string;
  media?: MediaInfo;
  images: ImageKind[];
  /** Bumped whenever the item changes, so image tags and Etag change too. */
  revision: number;
  themeSongIds?: string[];
  themeVideoIds?: string[];
  localTrailerIds?: string[];
  /** BoxSet / Playlist members. */
  memberIds?: string[];
}

export interface SimUser {
  id: string;
  name: string;
  password: string;
  isAdministrator: boolean;
  isHidden: boolean;
  isDisabled: boolean;
  hasImage: boolean;
  imageRevision: number;
  enableAllFolders: boolean;
  enabledFolders: string[];
  dateCreated: number;
  lastLoginDate?: number;
  lastActivityDate?: number;
}

export interface UserItemData {
  playCount: number;
  played: boolean;
  isFavorite: boolean;
  playbackPositionTicks: number;
  lastPlayedDate?: number;
}

export interface Library {
  id: string;
  name: string;
  collectionType: CollectionType;
  /** false for the playlists folder, which is not a virtual folder */
  virtual: boolean;
  locations: string[];
}

export type Scale = 'tiny' | 'small' | 'large';
