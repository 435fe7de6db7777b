/** BaseItemDto → the rows of items, media_sources, media_streams and item_genres (snake_case, as stored). */
import { DEFAULT_ITEM_FIELDS } from '../media-server/item-query.js';
import type { BaseItemDto } from '../media-server/schemas/item.js';

export interface SyncItemRow {
  server_id: string;
  id: string;
  library_id: string;
  type: string;
  name: string;
  sort_name: string | null;
  parent_id: string | null;
  series_id: string | null;
  series_name: string | null;
  season_id: string | null;
  season_name: string | null;
  album_id: string | null;
  album_name: string | null;
  artists: string[] | null;
  index_number: number | null;
  parent_index_number: number | null;
  production_year: number | null;
  community_rating: number | null;
  official_rating: string | null;
  run_time_ticks: number | null;
  size: number | null;
  path: string | null;
  file_name: string | null;
  container: string | null;
  date_created: string | null;
  date_last_saved: string | null;
  premiere_date: string | null;
  primary_image_tag: string | null;
  primary_image_hash: string | null;
  image_tags: Record<string, string> | null;
  image_blur_hashes: Record<string, Record<string, string>> | null;
  provider_ids: Record<string, string> | null;
  etag: string | null;
}

export interface SourceRow {
  server_id: string;
  item_id: string;
  id: string;
  name: string | null;
  path: string | null;
  container: string | null;
  size: number | null;
  bitrate: number | null;
  run_time_ticks: number | null;
}

export interface StreamRow {
  server_id: string;
  item_id: string;
  media_source_id: string;
  stream_index: number;
  type: string;
  codec: string | null;
  language: string | null;
  display_title: string | null;
  height: number | null;
  width: number | null;
  bit_rate: number | null;
  channels: number | null;
  real_frame_rate: number | null;
  video_range: string | null;
  video_range_type: string | null;
  aspect_ratio: string | null;
  is_default: boolean | null;
}

export interface GenreRow {
  server_id: string;
  item_id: string;
  genre: string;
}

export interface ItemPageRows {
  items: SyncItemRow[];
  sources: SourceRow[];
  streams: StreamRow[];
  genres: GenreRow[];
}

/** What a sync asks for: the client's defaults plus Etag, the change marker of a re-sync. */
export const SYNC_ITEM_FIELDS: readonly string[] = [...DEFAULT_ITEM_FIELDS, 'Etag'];

/** Folders that are not media: never stored as items (boxsets and playlists are ignored by design). */
export const IGNORED_ITEM_TYPES: readonly string[] = [
  'BoxSet',
  'Playlist',
  'PlaylistsFolder',
  'CollectionFolder',
  'UserView',
  'Folder',
  'AggregateFolder',
  'UserRootFolder',
  'ManualPlaylistsFolder',
];

const date = (value: string | undefined): string | null => value ?? null;

function fileName(path: string | undefined): string | null {
  if (!path) return null;
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || null;
}

/** Maps one page of items. Duplicates (an item listed twice) keep the last copy: one upsert may touch a row once. */
export function itemPageRows(serverId: string, libraryId: string, dtos: readonly BaseItemDto[]): ItemPageRows {
  const byId = new Map<string, BaseItemDto>();
  for (const dto of dtos) if (!IGNORED_ITEM_TYPES.includes(dto.Type)) byId.set(dto.Id, dto);
  const out: ItemPageRows = { items: [], sources: [], streams: [], genres: [] };
  for (const dto of byId.values()) {
    const sources = dto.MediaSources ?? [];
    const sourceSize = sources.reduce((sum, s) => sum + (s.Size ?? 0), 0);
    const primaryTag = dto.ImageTags?.Primary ?? null;
    out.items.push({
      server_id: serverId,
      id: dto.Id,
      library_id: libraryId,
      type: dto.Type,
      name: dto.Name ?? '',
      sort_name: null,
      parent_id: dto.ParentId ?? null,
      series_id: dto.SeriesId ?? null,
      series_name: dto.SeriesName ?? null,
      season_id: dto.SeasonId ?? null,
      season_name: dto.SeasonName ?? null,
      album_id: dto.AlbumId ?? null,
      album_name: dto.Album ?? null,
      artists: dto.Artists ?? null,
      index_number: dto.IndexNumber ?? null,
      parent_index_number: dto.ParentIndexNumber ?? null,
      production_year: dto.ProductionYear ?? null,
      community_rating: dto.CommunityRating ?? null,
      official_rating: dto.OfficialRating ?? null,
      run_time_ticks: dto.RunTimeTicks ?? null,
      size: dto.Size ?? (sources.length ? sourceSize : null),
      path: dto.Path ?? null,
      file_name: fileName(dto.Path),
      container: dto.Container ?? sources[0]?.Container ?? null,
      date_created: date(dto.DateCreated),
      date_last_saved: date(dto.DateLastSaved),
      premiere_date: date(dto.PremiereDate),
      primary_image_tag: primaryTag,
      primary_image_hash: primaryTag ? (dto.ImageBlurHashes?.Primary?.[primaryTag] ?? null) : null,
      image_tags: dto.ImageTags ?? null,
      image_blur_hashes: dto.ImageBlurHashes ?? null,
      provider_ids: dto.ProviderIds ?? null,
      etag: dto.Etag ?? null,
    });
    const seenSources = new Set<string>();
    for (const source of sources) {
      const sourceId = source.Id ?? dto.Id;
      if (seenSources.has(sourceId)) continue;
      seenSources.add(sourceId);
      out.sources.push({
        server_id: serverId,
        item_id: dto.Id,
        id: sourceId,
        name: source.Name ?? null,
        path: source.Path ?? null,
        container: source.Container ?? null,
        size: source.Size ?? null,
        bitrate: source.Bitrate ?? null,
        run_time_ticks: source.RunTimeTicks ?? null,
      });
      const seenStreams = new Set<number>();
      for (const stream of source.MediaStreams ?? []) {
        if (seenStreams.has(stream.Index)) continue;
        seenStreams.add(stream.Index);
        out.streams.push({
          server_id: serverId,
          item_id: dto.Id,
          media_source_id: sourceId,
          stream_index: stream.Index,
          type: stream.Type,
          codec: stream.Codec ?? null,
          language: stream.Language ?? null,
          display_title: stream.DisplayTitle ?? null,
          height: stream.Height ?? null,
          width: stream.Width ?? null,
          bit_rate: stream.BitRate ?? null,
          channels: stream.Channels ?? null,
          real_frame_rate: stream.RealFrameRate ?? null,
          video_range: stream.VideoRange ?? null,
          // Emby has no VideoRangeType; its ExtendedVideoType says the same thing (Hdr10, DolbyVision…).
          video_range_type: stream.VideoRangeType ?? stream.ExtendedVideoType ?? null,
          aspect_ratio: stream.AspectRatio ?? null,
          is_default: stream.IsDefault ?? null,
        });
      }
    }
    for (const genre of new Set(dto.Genres ?? [])) out.genres.push({ server_id: serverId, item_id: dto.Id, genre });
  }
  return out;
}
