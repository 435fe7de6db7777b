import { z } from 'zod';
import { mediaId } from './stats.js';

/** GET /api/getYearInReview: a user's year (userId) or the whole server's, in a time zone (the server's by default). */
export const yearReviewQuery = z.object({
  year: z.coerce
    .number({ error: 'must be a year such as 2026' })
    .int('must be a whole year')
    .min(2000, 'must be 2000 or later')
    .max(2100, 'must be 2100 or earlier'),
  userId: mediaId.optional(),
  timeZone: z
    .string()
    .max(64)
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Europe/Paris')
    .optional(),
});
export type YearReviewQuery = z.infer<typeof yearReviewQuery>;

const figures = { Plays: z.number(), WatchSeconds: z.number() };
const ranked = z.object({ Id: z.string(), Name: z.string(), Type: z.string().nullable(), ...figures });
const moment = z.object({ Date: z.string(), Title: z.string(), UserName: z.string() }).nullable();

export const yearReviewAnswer = z.object({
  Year: z.number(),
  TimeZone: z.string(),
  /** The user reviewed; null for the whole server. */
  UserId: z.string().nullable(),
  UserName: z.string().nullable(),
  ...figures,
  TopItems: z.array(ranked),
  TopSeries: z.array(ranked),
  TopGenres: z.array(z.object({ Genre: z.string(), ...figures })),
  /** The calendar day (YYYY-MM-DD, in the time zone) with the most watched time. */
  BusiestDay: z.object({ Date: z.string(), ...figures }).nullable(),
  /** The hour of the day (0–23, in the time zone) with the most watched time over the year. */
  BusiestHour: z.object({ Hour: z.number(), ...figures }).nullable(),
  /** The longest run of one user's plays, each starting at most 30 minutes after the previous one ended. */
  LongestBinge: z
    .object({ UserId: z.string(), UserName: z.string(), Start: z.string(), End: z.string(), Title: z.string(), ...figures })
    .nullable(),
  FirstPlay: moment,
  LastPlay: moment,
  /** The server over the same year, and its average per user who played: what the user's figures compare with. */
  Server: z.object({ ...figures, ActiveUsers: z.number(), AveragePlaysPerUser: z.number(), AverageWatchSecondsPerUser: z.number() }),
});
export type YearReviewAnswer = z.infer<typeof yearReviewAnswer>;
