/**
 * BaseItemDto and what hangs off it (MediaSourceInfo, MediaStream, UserItemDataDto), limited to the fields a
 * statistics dashboard reads (contract §5). Enum-like fields are plain strings: the two servers and their
 * versions use different value sets (VideoRangeType, TranscodeReason, ImageType…), and a new value must not
 * make a whole page of items unreadable.
 */
import { z } from 'zod';
import { int, nameIdPair, wireDate } from './wire.js';

export const mediaStreamSchema = z.object({
  /** Audio, Video, Subtitle, EmbeddedImage, Data, Lyric (Jellyfin), Attachment/Unknown (Emby). */
  Type: z.string(),
  Index: int,
  Codec: z.string().optional(),
  CodecTag: z.string().optional(),
  Language: z.string().optional(),
  Title: z.string().optional(),
  DisplayTitle: z.string().optional(),
  Profile: z.string().optional(),
  Level: z.number().optional(),
  BitRate: int.optional(),
  BitDepth: int.optional(),
  Width: int.optional(),
  Height: int.optional(),
  AverageFrameRate: z.number().optional(),
  RealFrameRate: z.number().optional(),
  AspectRatio: z.string().optional(),
  IsInterlaced: z.boolean().optional(),
  PixelFormat: z.string().optional(),
  ColorSpace: z.string().optional(),
  ColorTransfer: z.string().optional(),
  ColorPrimaries: z.string().optional(),
  /** Jellyfin: SDR/HDR/Unknown; Emby: free string. */
  VideoRange: z.string().optional(),
  /** Jellyfin only: SDR, HDR10, HDR10Plus, HLG, DOVI, DOVIWithHDR10, … */
  VideoRangeType: z.string().optional(),
  VideoDoViTitle: z.string().optional(),
  DvProfile: int.optional(),
  /** Emby only: None, Hdr10, Hdr10Plus, HyperLogGamma, DolbyVision. */
  ExtendedVideoType: z.string().optional(),
  ExtendedVideoSubType: z.string().optional(),
  ExtendedVideoSubTypeDescription: z.string().optional(),
  /** Jellyfin 10.11: None, DolbyAtmos, DTSX. */
  AudioSpatialFormat: z.string().optional(),
  Channels: int.optional(),
  ChannelLayout: z.string().optional(),
  SampleRate: int.optional(),
  IsDefault: z.boolean().optional(),
  IsForced: z.boolean().optional(),
  IsHearingImpaired: z.boolean().optional(),
  IsExternal: z.boolean().optional(),
  IsTextSubtitleStream: z.boolean().optional(),
  DeliveryMethod: z.string().optional(),
});
export type MediaStream = z.infer<typeof mediaStreamSchema>;

export const mediaSourceInfoSchema = z.object({
  Id: z.string().optional(),
  Name: z.string().optional(),
  Path: z.string().optional(),
  Protocol: z.string().optional(),
  Type: z.string().optional(),
  Container: z.string().optional(),
  Size: int.optional(),
  Bitrate: int.optional(),
  RunTimeTicks: int.optional(),
  IsRemote: z.boolean().optional(),
  VideoType: z.string().optional(),
  ETag: z.string().optional(),
  SupportsDirectPlay: z.boolean().optional(),
  SupportsDirectStream: z.boolean().optional(),
  SupportsTranscoding: z.boolean().optional(),
  DefaultAudioStreamIndex: int.optional(),
  DefaultSubtitleStreamIndex: int.optional(),
  MediaStreams: z.array(mediaStreamSchema).optional(),
});
export type MediaSourceInfo = z.infer<typeof mediaSourceInfoSchema>;

export const userItemDataSchema = z.object({
  PlaybackPositionTicks: int.optional(),
  PlayCount: int.optional(),
  IsFavorite: z.boolean().optional(),
  Played: z.boolean().optional(),
  LastPlayedDate: wireDate.optional(),
  PlayedPercentage: z.number().optional(),
  UnplayedItemCount: int.optional(),
  Likes: z.boolean().optional(),
  Rating: z.number().optional(),
  Key: z.string().optional(),
  ItemId: z.string().optional(),
});
export type UserItemData = z.infer<typeof userItemDataSchema>;

export const baseItemDtoSchema = z.object({
  Id: z.string().min(1),
  Name: z.string().optional(),
  ServerId: z.string().optional(),
  /** BaseItemKind on Jellyfin (Movie, Episode, Audio, Series, …), a free string on Emby. */
  Type: z.string(),
  MediaType: z.string().optional(),
  IsFolder: z.boolean().optional(),
  ParentId: z.string().optional(),
  SeriesId: z.string().optional(),
  SeriesName: z.string().optional(),
  SeasonId: z.string().optional(),
  SeasonName: z.string().optional(),
  IndexNumber: int.optional(),
  IndexNumberEnd: int.optional(),
  ParentIndexNumber: int.optional(),
  RunTimeTicks: int.optional(),
  DateCreated: wireDate.optional(),
  DateLastSaved: wireDate.optional(),
  DateLastMediaAdded: wireDate.optional(),
  PremiereDate: wireDate.optional(),
  EndDate: wireDate.optional(),
  ProductionYear: int.optional(),
  CommunityRating: z.number().optional(),
  CriticRating: z.number().optional(),
  OfficialRating: z.string().optional(),
  Overview: z.string().optional(),
  Status: z.string().optional(),
  Path: z.string().optional(),
  Container: z.string().optional(),
  /** With fields=Etag: changes whenever the item does (the library sync's change marker). */
  Etag: z.string().optional(),
  /** Emby only (Jellyfin has it on the media source). */
  Size: int.optional(),
  Width: int.optional(),
  Height: int.optional(),
  VideoType: z.string().optional(),
  LocationType: z.string().optional(),
  ExtraType: z.string().optional(),
  Genres: z.array(z.string()).optional(),
  Tags: z.array(z.string()).optional(),
  Studios: z.array(nameIdPair).optional(),
  ProviderIds: z.record(z.string(), z.string()).optional(),
  ImageTags: z.record(z.string(), z.string()).optional(),
  /** Jellyfin only: image type → tag → blurhash. */
  ImageBlurHashes: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  BackdropImageTags: z.array(z.string()).optional(),
  PrimaryImageAspectRatio: z.number().optional(),
  SeriesPrimaryImageTag: z.string().optional(),
  ParentBackdropItemId: z.string().optional(),
  ParentBackdropImageTags: z.array(z.string()).optional(),
  AlbumPrimaryImageTag: z.string().optional(),
  Artists: z.array(z.string()).optional(),
  ArtistItems: z.array(nameIdPair).optional(),
  AlbumArtist: z.string().optional(),
  AlbumArtists: z.array(nameIdPair).optional(),
  AlbumId: z.string().optional(),
  Album: z.string().optional(),
  /** On libraries and views: movies, tvshows, music, boxsets, playlists, … */
  CollectionType: z.string().optional(),
  ChildCount: int.optional(),
  RecursiveItemCount: int.optional(),
  MediaSources: z.array(mediaSourceInfoSchema).optional(),
  MediaStreams: z.array(mediaStreamSchema).optional(),
  UserData: userItemDataSchema.optional(),
});
export type BaseItemDto = z.infer<typeof baseItemDtoSchema>;

/** `{Items, TotalRecordCount, StartIndex}`; Emby does not echo StartIndex. */
export function queryResultSchema<T extends z.ZodType>(item: T) {
  return z.object({
    Items: z.array(item),
    TotalRecordCount: int.nonnegative(),
    StartIndex: int.nonnegative().optional(),
  });
}
export interface QueryResult<T> {
  Items: T[];
  TotalRecordCount: number;
  StartIndex?: number;
}

export const itemQueryResultSchema = queryResultSchema(baseItemDtoSchema);
