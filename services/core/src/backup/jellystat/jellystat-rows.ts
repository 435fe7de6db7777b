/**
 * Jellystat's rows (JELLYSTAT_BACKUP.md §2) mapped to Reelstat's tables. Values arrive as Jellystat encodes
 * them (bigint as a decimal string or a number, JSON as a value or as text); missing keys (older versions)
 * read as null.
 */
export type JsonRow = Record<string, unknown>;

export const text = (value: unknown): string | null => (value === null || value === undefined || value === '' ? null : String(value));
export const int = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : null;
};
export const num = (value: unknown): number | null => {
  const n = value === null || value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : null;
};
export const bool = (value: unknown): boolean => value === true || value === 'true';
export const time = (value: unknown): string | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};
export const json = (value: unknown): unknown => {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
};
/** Jellyfin GUIDs are matched lowercase without dashes; Emby's decimal ids pass unchanged. */
export const id = (value: unknown): string | null => {
  const raw = text(value);
  if (raw === null) return null;
  return /^[0-9a-fA-F-]{32,36}$/.test(raw) && raw.replace(/-/g, '').length === 32 ? raw.replace(/-/g, '').toLowerCase() : raw;
};

export function libraryRow(r: JsonRow) {
  return {
    id: id(r.Id),
    name: text(r.Name),
    collection_type: text(r.CollectionType) ?? 'mixed',
    archived: bool(r.archived),
    primary_image_tag: text(r.ImageTagsPrimary),
    item_count: int(r.item_count) ?? 0,
    season_count: int(r.season_count) ?? 0,
    episode_count: int(r.episode_count) ?? 0,
  };
}

const itemBase = (r: JsonRow) => ({
  name: text(r.Name),
  archived: bool(r.archived),
  archived_at: bool(r.archived) ? new Date().toISOString() : null,
  premiere_date: time(r.PremiereDate),
  date_created: time(r.DateCreated),
  community_rating: num(r.CommunityRating),
  run_time_ticks: int(r.RunTimeTicks),
  production_year: int(r.ProductionYear),
  primary_image_hash: text(r.PrimaryImageHash),
});

export function topItemRow(r: JsonRow) {
  return {
    ...itemBase(r),
    id: id(r.Id),
    type: text(r.Type) ?? 'Movie',
    library_id: id(r.ParentId),
    parent_id: id(r.ParentId),
    primary_image_tag: text(r.ImageTagsPrimary),
    series_id: null as string | null,
    series_name: null as string | null,
    season_id: null as string | null,
    season_name: null as string | null,
    index_number: null as number | null,
    parent_index_number: null as number | null,
    official_rating: null as string | null,
  };
}

export function seasonRow(r: JsonRow) {
  return {
    ...topItemRow(r),
    type: 'Season',
    library_id: null,
    parent_id: id(r.SeriesId),
    series_id: id(r.SeriesId),
    series_name: text(r.SeriesName),
    index_number: int(r.IndexNumber),
    primary_image_tag: text(r.SeriesPrimaryImageTag),
  };
}

export function episodeRow(r: JsonRow) {
  return {
    ...itemBase(r),
    id: id(r.EpisodeId),
    type: 'Episode',
    library_id: null,
    parent_id: id(r.SeasonId),
    primary_image_tag: null,
    series_id: id(r.SeriesId),
    series_name: text(r.SeriesName),
    season_id: id(r.SeasonId),
    season_name: text(r.SeasonName),
    index_number: int(r.IndexNumber),
    parent_index_number: int(r.ParentIndexNumber),
    official_rating: text(r.OfficialRating),
  };
}
export type ItemRow = ReturnType<typeof topItemRow>;

export function userRow(r: JsonRow) {
  return {
    id: id(r.Id),
    name: text(r.Name) ?? text(r.Id),
    is_administrator: bool(r.IsAdministrator),
    primary_image_tag: text(r.PrimaryImageTag),
    last_login_at: time(r.LastLoginDate),
    last_activity_at: time(r.LastActivityDate),
  };
}

export function fileRow(r: JsonRow) {
  return { id: id(r.Id), path: text(r.Path), name: text(r.Name), size: int(r.Size), bitrate: int(r.Bitrate) };
}

/** Jellystat's PlayMethod, or the plugin's text such as "Transcode (v:h264 a:aac)". */
export function playMethod(value: unknown): 'DirectPlay' | 'DirectStream' | 'Transcode' {
  const method = text(value) ?? '';
  if (method.startsWith('Transcode')) return 'Transcode';
  if (method.startsWith('DirectStream')) return 'DirectStream';
  return 'DirectPlay';
}
