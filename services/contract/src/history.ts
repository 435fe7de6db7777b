import { z } from 'zod';
import { mediaId } from './stats.js';

/** Paged history of SPEC.md §7 (getHistory, getUserHistory, getLibraryHistory, getItemHistory). */
export const HISTORY_SORT_COLUMNS = [
  'ActivityDateInserted',
  'UserName',
  'RemoteEndPoint',
  'NowPlayingItemName',
  'Client',
  'PlayMethod',
  'DeviceName',
  'PlaybackDuration',
] as const;
export const HISTORY_PLAY_METHODS = ['DirectPlay', 'DirectStream', 'Transcode'] as const;

const idList = z.union([mediaId.transform((id) => [id]), z.array(mediaId).max(500, 'at most 500 ids')]);
const playMethodValue = z.enum(['All', ...HISTORY_PLAY_METHODS], { error: `must be All, ${HISTORY_PLAY_METHODS.join(', ')}` });
const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO date-time such as 2026-03-29T00:00:00Z' }).or(z.iso.date());

/** One filter of the dashboard's JSON `filters` text. */
export const historyFilter = z.discriminatedUnion('field', [
  z.object({ field: z.literal('PlayMethod'), value: z.union([playMethodValue.transform((m) => [m]), z.array(playMethodValue).max(3)]) }),
  z.object({ field: z.enum(['ParentId', 'LibraryId']), value: idList }),
  z.object({ field: z.literal('UserId'), value: idList }),
  z.object({ field: z.literal('ActivityDateInserted'), min: isoDate.optional(), max: isoDate.optional() }),
]);
export type HistoryFilter = z.infer<typeof historyFilter>;

/** The incumbent's form `{"field":"ParentId","in":"id1,id2"}` becomes SPEC's `{"field":"ParentId","value":["id1","id2"]}`. */
function incumbentInForm(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const { in: listed, ...rest } = raw as Record<string, unknown>;
  if (typeof listed !== 'string' || 'value' in rest) return raw;
  return {
    ...rest,
    value: listed
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  };
}

const filtersText = z
  .string()
  .max(20_000, 'must be at most 20,000 characters')
  .transform((text, context) => {
    if (text.trim() === '') return [];
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON: an array of {field, value} filters' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(z.preprocess(incumbentInForm, historyFilter), { error: 'must be an array of {field, value} filters' })
      .max(20, 'at most 20 filters'),
  );

export const historyQuery = z.object({
  size: z.coerce
    .number({ error: 'must be a number' })
    .min(10, 'must be 10, 25, 50 or 100')
    .max(100, 'must be 10, 25, 50 or 100')
    .refine((value) => [10, 25, 50, 100].includes(value), 'must be 10, 25, 50 or 100')
    .default(10),
  page: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(1_000_000).default(1),
  search: z.string().max(200, 'must be at most 200 characters').default(''),
  sort: z.enum(HISTORY_SORT_COLUMNS, { error: `must be one of ${HISTORY_SORT_COLUMNS.join(', ')}` }).default('ActivityDateInserted'),
  desc: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(true),
  filters: filtersText.default([]),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

export const userHistoryBody = z.object({ userid: mediaId });
export const libraryHistoryBody = z.object({ libraryid: mediaId });
export const itemHistoryBody = z.object({ itemid: mediaId });

const transcodingInfo = z.unknown();

/** SPEC.md §3 Playback activity record; `results` are the plays folded into the row. */
export interface PlaybackRecordShape {
  Id: number;
  UserName: string;
  UserId: string;
  RemoteEndPoint: string | null;
  SeriesName: string | null;
  SeasonNumber: number | null;
  EpisodeNumber: number | null;
  NowPlayingItemName: string;
  NowPlayingItemId: string;
  EpisodeId: string | null;
  Client: string | null;
  PlayMethod: string;
  DeviceName: string | null;
  ActivityDateInserted: string;
  PlaybackDuration: number;
  TotalPlays: number;
  TranscodingInfo: unknown;
  /** The media server's stream array (SPEC.md §3 Media stream). */
  MediaStreams: Array<Record<string, unknown>> | null;
  OriginalContainer: string | null;
  /** Reelstat's stream-versus-source comparison ({Source, Stream}) for the stream-details modal. */
  StreamDetails: Record<string, unknown> | null;
  ParentId: string | null;
  results: PlaybackRecordShape[];
}
export const playbackRecord: z.ZodType<PlaybackRecordShape> = z.object({
  Id: z.number(),
  UserName: z.string(),
  UserId: z.string(),
  RemoteEndPoint: z.string().nullable(),
  SeriesName: z.string().nullable(),
  SeasonNumber: z.number().nullable(),
  EpisodeNumber: z.number().nullable(),
  NowPlayingItemName: z.string(),
  NowPlayingItemId: z.string(),
  EpisodeId: z.string().nullable(),
  Client: z.string().nullable(),
  PlayMethod: z.string(),
  DeviceName: z.string().nullable(),
  ActivityDateInserted: z.string(),
  PlaybackDuration: z.number(),
  TotalPlays: z.number(),
  TranscodingInfo: transcodingInfo,
  MediaStreams: z.array(z.record(z.string(), z.unknown())).nullable(),
  OriginalContainer: z.string().nullable(),
  StreamDetails: z.record(z.string(), z.unknown()).nullable(),
  ParentId: z.string().nullable(),
  get results() {
    return z.array(playbackRecord);
  },
});

export const historyPageAnswer = z.object({
  results: z.array(playbackRecord),
  pages: z.number(),
  current_page: z.number(),
  size: z.number(),
  /** Plays matching; for a search or filter, counted up to 10,000 (then `total_exact` is false). */
  total: z.number(),
  total_exact: z.boolean(),
  search: z.string(),
  sort: z.string(),
  desc: z.boolean(),
  filters: z.array(z.unknown()),
});
export type HistoryPageAnswer = z.infer<typeof historyPageAnswer>;

export const deletePlaybackBody = z.object({
  ids: z
    .array(
      z.union([
        z.number().int().positive(),
        z
          .string()
          .regex(/^[1-9][0-9]{0,17}$/, 'must be a history id')
          .transform(Number),
      ]),
    )
    .min(1, 'name at least one play')
    .max(1000, 'at most 1000 plays at once'),
});
export const deletePlaybackAnswer = z.object({ message: z.string(), deleted: z.number() });

export const timelineBody = z.object({
  userId: mediaId,
  libraries: z.array(mediaId).min(1, 'choose at least one library').max(500),
});
export const timelineAnswer = z.array(
  z.object({
    Title: z.string(),
    SeasonName: z.string().nullable(),
    MediaType: z.string(),
    EpisodeCount: z.number().nullable(),
    FirstActivityDate: z.string(),
    LastActivityDate: z.string(),
    NowPlayingItemId: z.string(),
  }),
);

/**
 * The socket event 'history': pushed once per committed change of the history (plays written, extended or
 * deleted), so open pages refetch what they show. Ids only, never titles: every browser receives it.
 * `itemIds` holds the played items and their seasons and series.
 */
export interface HistoryChangedEvent {
  serverId: string;
  userIds: string[];
  libraryIds: string[];
  itemIds: string[];
}
export const HISTORY_CHANGED_EVENT = 'history';
