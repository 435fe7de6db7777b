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
