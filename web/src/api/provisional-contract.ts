/**
 * Provisional types for endpoints whose zod contract (services/core/src/contract) does not exist yet.
 * Field names are SPEC.md §3's, exactly. Replace each block by z.infer of the real schema when it lands.
 */

export interface MediaStream {
  Type: string;
  Codec?: string | null;
  Height?: number | null;
  Width?: number | null;
  BitRate?: number | null;
  Channels?: number | null;
  Language?: string | null;
  DisplayTitle?: string | null;
  RealFrameRate?: number | null;
  VideoRange?: string | null;
  AspectRatio?: string | null;
  Index?: number | null;
}

export interface TranscodingInfo {
  Container?: string | null;
  IsVideoDirect?: boolean | null;
  IsAudioDirect?: boolean | null;
  VideoCodec?: string | null;
  AudioCodec?: string | null;
  AudioChannels?: number | null;
  Height?: number | null;
  Width?: number | null;
  Bitrate?: number | null;
  AudioBitrate?: number | null;
  TranscodeReasons?: string[] | null;
}

export interface Session {
  Id: string;
  UserId?: string | null;
  UserName?: string | null;
  UserPrimaryImageTag?: string | null;
  Client?: string | null;
  DeviceName?: string | null;
  ApplicationVersion?: string | null;
  RemoteEndPoint?: string | null;
  PlayState?: {
    PositionTicks?: number | null;
    IsPaused?: boolean | null;
    AudioStreamIndex?: number | null;
    SubtitleStreamIndex?: number | null;
    PlayMethod?: string | null;
  } | null;
  TranscodingInfo?: TranscodingInfo | null;
  NowPlayingItem?: {
    Id: string;
    SeriesId?: string | null;
    SeriesName?: string | null;
    Name?: string | null;
    Type?: string | null;
    Container?: string | null;
    RunTimeTicks?: number | null;
    Bitrate?: number | null;
    MediaStreams?: MediaStream[] | null;
    Artists?: string[] | null;
    ParentIndexNumber?: number | null;
    IndexNumber?: number | null;
    CurrentProgram?: { Name?: string | null } | null;
  } | null;
}

export interface StatItem {
  Id?: string | null;
  Name?: string | null;
  UserId?: string | null;
  Client?: string | null;
  Plays?: number | null;
  unique_viewers?: number | null;
  Count?: number | null;
  PrimaryImageHash?: string | null;
  archived?: boolean | null;
  CollectionType?: string | null;
}

export interface LibraryOverview {
  Id: string;
  Name: string;
  CollectionType: string | null;
  Library_Count: number;
  Season_Count: number;
  Episode_Count: number;
}

export interface TrackedLibrary {
  Id: string;
  Name: string;
  CollectionType: string | null;
  Tracked: boolean;
}

export interface TimeParts {
  days?: number | null;
  hours?: number | null;
  minutes?: number | null;
  seconds?: number | null;
}

export interface Library {
  Id: string;
  Name: string;
  CollectionType: string | null;
  archived?: boolean | null;
  total_play_time?: number | null;
  total_playback_duration?: number | null;
  Plays?: number | null;
  ItemName?: string | null;
  LastActivity?: TimeParts | null;
  Library_Count?: number | null;
  Season_Count?: number | null;
  Episode_Count?: number | null;
}

export interface LibraryMetadata {
  Id: string;
  Name?: string | null;
  files?: number | null;
  Size?: number | null;
}

export interface Item {
  Id: string;
  Name: string;
  Type: string;
  SeriesId?: string | null;
  SeriesName?: string | null;
  SeasonId?: string | null;
  SeasonName?: string | null;
  EpisodeId?: string | null;
  IndexNumber?: number | null;
  ParentIndexNumber?: number | null;
  ParentId?: string | null;
  LibraryName?: string | null;
  FileName?: string | null;
  Path?: string | null;
  RunTimeTicks?: number | null;
  Size?: number | null;
  archived?: boolean | null;
  PrimaryImageHash?: string | null;
  ImageBlurHashes?: unknown;
  ImageTags?: unknown;
  DateCreated?: string | null;
  times_played?: number | null;
  total_play_time?: number | null;
  Episodes?: number | null;
}

export interface RecentlyAdded {
  Id: string;
  Type: string;
  Name: string;
  SeriesId?: string | null;
  SeriesName?: string | null;
  SeasonId?: string | null;
  EpisodeId?: string | null;
  SeasonNumber?: number | null;
  EpisodeNumber?: number | null;
  NewEpisodeCount?: number | null;
  DateCreated?: string | null;
  PrimaryImageHash?: string | null;
}

export interface UserActivityRow {
  UserId: string;
  UserName: string;
  PrimaryImageTag?: string | null;
  Tracked?: boolean;
  LastWatched?: string | null;
  NowPlayingItemId?: string | null;
  LastClient?: string | null;
  TotalPlays?: number | null;
  TotalWatchTime?: number | null;
  LastSeen?: TimeParts | null;
}

export interface UserDetails {
  Id?: string;
  UserId?: string;
  Name?: string;
  UserName?: string;
  PrimaryImageTag?: string | null;
}

export interface LastPlayed {
  Id: string;
  Name: string;
  EpisodeId?: string | null;
  EpisodeName?: string | null;
  UserId?: string | null;
  UserName?: string | null;
  SeasonNumber?: number | null;
  EpisodeNumber?: number | null;
  LastPlayed?: TimeParts | null;
  archived?: boolean | null;
  PrimaryImageHash?: string | null;
}

export interface PlaybackActivity {
  Id: string | number;
  UserName?: string | null;
  UserId?: string | null;
  RemoteEndPoint?: string | null;
  SeriesName?: string | null;
  SeasonNumber?: number | null;
  EpisodeNumber?: number | null;
  NowPlayingItemName?: string | null;
  NowPlayingItemId?: string | null;
  EpisodeId?: string | null;
  Client?: string | null;
  PlayMethod?: string | null;
  DeviceName?: string | null;
  ActivityDateInserted: string;
  PlaybackDuration?: number | null;
  TotalPlays?: number | null;
  TranscodingInfo?: TranscodingInfo | null;
  MediaStreams?: MediaStream[] | null;
  results?: PlaybackActivity[] | null;
  ParentId?: string | null;
}

export interface Paged<T> {
  results: T[];
  pages: number;
  current_page: number;
  size: number;
  search?: string | null;
  sort?: string | null;
  desc?: boolean | null;
  filters?: unknown;
}

export interface GlobalStats {
  Plays?: number | null;
  total_playback_duration?: number | null;
  UserId?: string | null;
}

export interface GenreStat {
  genre: string;
  duration: number;
  plays: number;
}

export interface TimelineEntry {
  Title: string;
  SeasonName?: string | null;
  MediaType: string;
  EpisodeCount?: number | null;
  FirstActivityDate: string;
  LastActivityDate: string;
  NowPlayingItemId?: string | null;
}

export interface ViewsOverTime {
  stats: Array<{ Key: string } & Record<string, unknown>>;
  libraries: Array<{ Id: string; Name: string }>;
}

export interface LogEntry {
  Id: string | number;
  Name: string;
  Type: string;
  TimeRun: string;
  Duration: number;
  ExecutionType: string;
  Result: string;
  Log: Array<{ Message: string; color?: string | null }>;
}

export interface Task {
  name: string;
  type: 'JOB' | 'IMPORT' | string;
  running: boolean;
}

export interface TaskSetting {
  taskname: string;
  Interval: number;
}

export interface ActivityMonitorSettings {
  activeSessionsInterval: number;
  idleInterval: number;
}

export interface GeolocationResult {
  city?: { names?: { en?: string } };
  country?: { names?: { en?: string } };
  postal?: { code?: string };
  traits?: { autonomous_system_organization?: string };
  location?: { latitude?: number; longitude?: number };
}

/** Background task events pushed over the socket (SPEC.md §4). */
export interface TaskEvent {
  type: 'Start' | 'Update' | 'Success' | 'Error' | string;
  message?: string;
}
