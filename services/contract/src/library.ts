import { z } from 'zod';
import { mediaId } from './stats.js';

/** Users, libraries and items of SPEC.md §7. */
export const librariesAnswer = z.array(z.object({ Id: z.string(), Name: z.string(), CollectionType: z.string(), archived: z.boolean() }));

export const recentlyAddedQuery = z.object({
  GroupResults: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(true),
  libraryid: mediaId.optional(),
  limit: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(30),
});
export const recentlyAddedAnswer = z.array(
  z.object({
    Id: z.string(),
    Type: z.string(),
    Name: z.string(),
    SeriesId: z.string().nullable(),
    SeriesName: z.string().nullable(),
    SeasonId: z.string().nullable(),
    EpisodeId: z.string().nullable(),
    SeasonNumber: z.number().nullable(),
    EpisodeNumber: z.number().nullable(),
    NewEpisodeCount: z.number().nullable(),
    DateCreated: z.string().nullable(),
    PrimaryImageHash: z.string().nullable(),
  }),
);

export const userDetailsAnswer = z.object({
  Id: z.string(),
  UserId: z.string(),
  Name: z.string(),
  UserName: z.string(),
  PrimaryImageTag: z.string().nullable(),
  IsAdministrator: z.boolean(),
  Tracked: z.boolean(),
});

/** SPEC.md §3 Item. */
export const itemAnswer = z.object({
  Id: z.string(),
  Name: z.string(),
  Type: z.string(),
  SeriesId: z.string().nullable(),
  SeriesName: z.string().nullable(),
  SeasonId: z.string().nullable(),
  SeasonName: z.string().nullable(),
  EpisodeId: z.string().nullable(),
  IndexNumber: z.number().nullable(),
  ParentIndexNumber: z.number().nullable(),
  ParentId: z.string().nullable(),
  LibraryName: z.string().nullable(),
  FileName: z.string().nullable(),
  Path: z.string().nullable(),
  RunTimeTicks: z.number().nullable(),
  Size: z.number().nullable(),
  archived: z.boolean(),
  PrimaryImageHash: z.string().nullable(),
  ImageBlurHashes: z.unknown(),
  ImageTags: z.unknown(),
  DateCreated: z.string().nullable(),
  times_played: z.number(),
  total_play_time: z.number(),
  Episodes: z.number().optional(),
});
export const itemsAnswer = z.array(itemAnswer);
export const itemIdBody = z.object({ Id: mediaId });

export const purgeBody = z.object({ id: mediaId, withActivity: z.boolean({ error: 'must be true or false' }).default(false) });
export const purgeAnswer = z.object({ message: z.string(), items: z.number(), plays: z.number(), libraries: z.number() });

export type ItemAnswer = z.infer<typeof itemAnswer>;
export type RecentlyAddedAnswer = z.infer<typeof recentlyAddedAnswer>[number];

/** Sort keys of a library's items: SPEC.md §9's options, and the field names the incumbent's clients send. */
export const LIBRARY_ITEM_SORTS = [
  'Title',
  'Date',
  'Views',
  'WatchTime',
  'Size',
  'Name',
  'DateCreated',
  'times_played',
  'total_play_time',
] as const;

/** Any of these in the query asks getLibraryItemsWithStats for the paged result instead of the plain array. */
export const libraryItemsQuery = z.object({
  size: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(1000).optional(),
  page: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(1_000_000).optional(),
  sort: z.enum(LIBRARY_ITEM_SORTS, { error: `must be one of ${LIBRARY_ITEM_SORTS.join(', ')}` }).optional(),
  desc: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
  search: z.string().max(200, 'must be at most 200 characters').optional(),
});
export type LibraryItemsQuery = z.infer<typeof libraryItemsQuery>;

export const libraryItemsPage = z.object({
  results: itemsAnswer,
  pages: z.number().int(),
  current_page: z.number().int(),
  size: z.number().int(),
  search: z.string(),
  sort: z.string(),
  desc: z.boolean(),
});
