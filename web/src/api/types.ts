import type { z } from 'zod';
import type {
  clientCardAnswer,
  genreStatsAnswer,
  GeolocationAnswer,
  GlobalStatsAnswer,
  HistoryPageAnswer,
  itemCardAnswer,
  ItemAnswer,
  LastPlayedAnswer,
  LibraryAnswer,
  libraryCardAnswer,
  libraryMetadataAnswer,
  libraryCardStatsAnswer,
  libraryOverviewAnswer,
  LiveSession,
  LogEntry as ContractLogEntry,
  playMethodCardAnswer,
  PlaybackRecordShape,
  RecentlyAddedAnswer,
  sessionMediaStream,
  ActivityMonitorSettings as ContractMonitorSettings,
  TaskEventPayload,
  TaskInfoAnswer,
  timelineAnswer,
  trackedLibrary,
  UserActivityAnswer,
  userCardAnswer,
  userDetailsAnswer,
  ViewsAnswer,
} from '@reelstat/contract';

/** The web's types, all derived from the server's zod contract (services/contract). */

export type MediaStream = z.infer<typeof sessionMediaStream>;
export type Session = LiveSession;
export type TranscodingInfo = NonNullable<LiveSession['TranscodingInfo']>;

/** One row of any stat card: the union of the card answers' fields (each card fills its own). */
export type StatItem = Partial<
  z.infer<typeof itemCardAnswer>[number] &
    z.infer<typeof libraryCardAnswer>[number] &
    z.infer<typeof clientCardAnswer>[number] &
    z.infer<typeof userCardAnswer>[number] &
    z.infer<typeof playMethodCardAnswer>[number]
>;

export type LibraryOverview = z.infer<typeof libraryOverviewAnswer>[number];
export type TrackedLibrary = z.infer<typeof trackedLibrary>;
export type Library = LibraryAnswer;
export type LibraryMetadata = z.infer<typeof libraryMetadataAnswer>[number];
/** A library card; with "All servers", the server it belongs to. */
export type LibraryCardStats = z.infer<typeof libraryCardStatsAnswer>[number];
export type Item = ItemAnswer;
export type RecentlyAdded = RecentlyAddedAnswer;
export type UserActivityRow = UserActivityAnswer;
export type UserDetails = z.infer<typeof userDetailsAnswer>;
export type LastPlayed = LastPlayedAnswer;
export type TimeParts = { days?: number | null; hours?: number | null; minutes?: number | null; seconds?: number | null };

/** One side of a history row's stream details, as the activity monitor records them. */
export interface StreamFacts {
  Bitrate?: number;
  Container?: string;
  VideoCodec?: string;
  Width?: number;
  Height?: number;
  FrameRate?: number;
  VideoRange?: string;
  AspectRatio?: string;
  AudioCodec?: string;
  AudioChannels?: number;
  AudioLanguage?: string;
  TranscodeReasons?: string[];
}
export interface StreamDetails {
  Source: StreamFacts;
  Stream: StreamFacts;
  ReportedPlayMethod?: string | null;
}

/**
 * A history row. TranscodingInfo has the session's shape; MediaStreams is the media server's stream list and
 * StreamDetails the recorded {Source, Stream} facts (null for imported rows).
 */
export type PlaybackActivity = Omit<PlaybackRecordShape, 'TranscodingInfo' | 'MediaStreams' | 'StreamDetails' | 'results'> & {
  TranscodingInfo?: TranscodingInfo | null;
  MediaStreams?: MediaStream[] | null;
  StreamDetails?: StreamDetails | null;
  results?: PlaybackActivity[] | null;
};
export type Paged = Omit<HistoryPageAnswer, 'results'> & { results: PlaybackActivity[] };

export type GlobalStats = GlobalStatsAnswer;
export type GenreStat = z.infer<typeof genreStatsAnswer>['results'][number];
export type TimelineEntry = z.infer<typeof timelineAnswer>[number];
export type ViewsOverTime = ViewsAnswer;
export type LogEntry = ContractLogEntry;
export type Task = TaskInfoAnswer;
export type ActivityMonitorSettings = ContractMonitorSettings;
export type GeolocationResult = GeolocationAnswer;
export type TaskEvent = TaskEventPayload;
