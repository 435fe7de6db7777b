import { z } from 'zod';

/** Statistics calls of SPEC.md §7: windows in days or hours, buckets in an IANA time zone. */

/** An IANA time zone such as Europe/Paris or Asia/Kolkata; overrides the server's TZ for one request. */
export const timeZoneName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Paris');

/** Media-server ids (users, libraries, items): letters, digits and a few separators, never a path. */
export const mediaId = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(128, 'must be at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'must be a media-server id (letters, digits, . _ : -)');

/**
 * A window of days (SPEC.md §4): 0 is today since local midnight, N adds the N days before. The dashboard
 * turns values under 1 into 0 before sending.
 */
export const days = z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(36_500);
export const daysQueryValue = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(36_500);
/** Hours are 24 × the days of SPEC.md §9 periods; 9999 days (239,976 hours) means all time. */
export const hours = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(24 * 36_500);

export const daysBody = z.object({ days: days.default(30), tz: timeZoneName.optional() });
export const itemTypeBody = z.object({ days: days.default(30), type: z.enum(['Movie', 'Series', 'Audio']), tz: timeZoneName.optional() });
export const chartQuery = z.object({ days: daysQueryValue.default(20), tz: timeZoneName.optional() });
export const userIdBody = z.object({ userid: mediaId });
export const libraryIdBody = z.object({ libraryid: mediaId });
export const globalUserBody = z.object({ hours, userid: mediaId });
export const globalLibraryBody = z.object({ hours, libraryid: mediaId });
export const globalItemBody = z.object({ hours, itemid: mediaId });
export const playMethodStatsBody = z.object({ hours, libraryid: mediaId });
export const genreUserQuery = z.object({ userid: mediaId });
export const genreLibraryQuery = z.object({ libraryid: mediaId });

const imageHash = z.string().nullable();

/** SPEC.md §3 Stat item, per card. */
export const itemCardAnswer = z.array(
  z.object({
    Id: z.string(),
    Name: z.string(),
    Plays: z.number(),
    unique_viewers: z.number().optional(),
    total_playback_duration: z.number(),
    PrimaryImageHash: imageHash,
    archived: z.boolean(),
  }),
);
export const libraryCardAnswer = z.array(
  z.object({
    Id: z.string(),
    Name: z.string(),
    Plays: z.number(),
    total_playback_duration: z.number(),
    CollectionType: z.string(),
    PrimaryImageHash: imageHash,
    archived: z.boolean(),
  }),
);
export const clientCardAnswer = z.array(z.object({ Client: z.string(), Plays: z.number(), total_playback_duration: z.number() }));
export const userCardAnswer = z.array(
  z.object({
    UserId: z.string(),
    Name: z.string(),
    Plays: z.number(),
    total_playback_duration: z.number(),
    PrimaryImageTag: z.string().nullable(),
  }),
);
export const playMethodCardAnswer = z.array(z.object({ Name: z.string(), Count: z.number(), total_playback_duration: z.number() }));

export const timeParts = z.object({ days: z.number(), hours: z.number(), minutes: z.number(), seconds: z.number() });

export const libraryOverviewAnswer = z.array(
  z.object({
    Id: z.string(),
    Name: z.string(),
    CollectionType: z.string(),
    Library_Count: z.number(),
    Season_Count: z.number(),
    Episode_Count: z.number(),
  }),
);
export const libraryMetadataAnswer = z.array(
  z.object({
    Id: z.string(),
    Name: z.string(),
    files: z.number(),
    Size: z.number(),
    /** With serverId=all: the media server of this library (libraries belong to one server). */
    ServerId: z.string().optional(),
  }),
);

/** SPEC.md §3 Library (cards and detail). */
export const libraryAnswer = z.object({
  Id: z.string(),
  Name: z.string(),
  CollectionType: z.string(),
  archived: z.boolean(),
  Tracked: z.boolean(),
  PrimaryImageHash: imageHash,
  total_play_time: z.number(),
  total_playback_duration: z.number(),
  Plays: z.number(),
  ItemName: z.string().nullable(),
  LastActivity: timeParts.nullable(),
  Library_Count: z.number(),
  Season_Count: z.number(),
  Episode_Count: z.number(),
  files: z.number(),
  Size: z.number(),
});
export const libraryCardStatsAnswer = z.array(
  /** With serverId=all: the media server of this library (libraries belong to one server). */
  libraryAnswer.extend({ ServerId: z.string().optional() }),
);

/** SPEC.md §3 User activity row. */
export const userActivityAnswer = z.array(
  z.object({
    UserId: z.string(),
    UserName: z.string(),
    PrimaryImageTag: z.string().nullable(),
    Tracked: z.boolean(),
    LastWatched: z.string().nullable(),
    NowPlayingItemId: z.string().nullable(),
    LastClient: z.string().nullable(),
    TotalPlays: z.number(),
    TotalWatchTime: z.number(),
    LastSeen: timeParts.nullable(),
    /** With serverId=all: the media server of this user (users belong to one server). */
    ServerId: z.string().optional(),
  }),
);

/** SPEC.md §3 Last played entry. */
export const lastPlayedAnswer = z.array(
  z.object({
    Id: z.string(),
    Name: z.string(),
    EpisodeId: z.string().nullable(),
    EpisodeName: z.string().nullable(),
    UserId: z.string(),
    UserName: z.string(),
    SeasonNumber: z.number().nullable(),
    EpisodeNumber: z.number().nullable(),
    LastPlayed: timeParts.nullable(),
    ActivityDateInserted: z.string(),
    archived: z.boolean(),
    PrimaryImageHash: imageHash,
  }),
);

export const globalStatsAnswer = z.object({
  Plays: z.number(),
  total_playback_duration: z.number(),
  UserId: z.string().optional(),
  LibraryId: z.string().optional(),
  ItemId: z.string().optional(),
});
export const genreStatsAnswer = z.object({ results: z.array(z.object({ genre: z.string(), duration: z.number(), plays: z.number() })) });

export const playMethodStatsAnswer = z.object({
  stats: z.array(z.object({ Key: z.string(), Count: z.number(), Duration: z.number() })),
  types: z.array(z.string()),
});

/** Views over time / by weekday / by hour: one row per bucket, `{count, duration}` under each library Name (unique). */
export const viewsAnswer = z.object({
  stats: z.array(z.object({ Key: z.string() }).catchall(z.union([z.string(), z.object({ count: z.number(), duration: z.number() })]))),
  libraries: z.array(z.object({ Id: z.string(), Name: z.string() })),
});

export type StatItemCard = z.infer<typeof itemCardAnswer>[number];
export type ViewsAnswer = z.infer<typeof viewsAnswer>;
export type LibraryAnswer = z.infer<typeof libraryAnswer>;
export type UserActivityAnswer = z.infer<typeof userActivityAnswer>[number];
export type LastPlayedAnswer = z.infer<typeof lastPlayedAnswer>[number];
export type GlobalStatsAnswer = z.infer<typeof globalStatsAnswer>;
