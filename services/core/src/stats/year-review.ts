import type { YearReviewAnswer, YearReviewQuery } from '@reelstat/contract';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { StatisticsContext } from './statistics-context.js';
import { yearReviewPng } from './year-review-card.js';
import {
  activeUsers,
  firstAndLast,
  genresOfYear,
  longestBinge,
  serverTotalsOfYear,
  serverYear,
  topsFromYearRollup,
  topsOfYear,
  userYearFromHistory,
  type Ranked,
} from './year-review-queries.js';

const ranked = (row: Ranked) => ({ Id: row.id, Name: row.name, Type: row.type, Plays: row.plays, WatchSeconds: row.seconds });

/**
 * The year in review of a user or of the whole server. The server's totals, busiest day and hour come from
 * the charts' levels (library hours and quarter hours), its top items and series from the year's ranked rows
 * (play_year_tops, 0031); the genres from the genre × month rollup and the longest binge from the table of binge
 * runs (0028), for the server and for a user; a user's totals, busiest day and hour and top items and series
 * read that user's plays of the year through the history's covering index. Answers are cached with the other statistics until the history
 * changes.
 */
export class YearReviewService {
  constructor(
    private readonly db: Database,
    private readonly context: StatisticsContext,
  ) {}

  async review(query: YearReviewQuery, serverId?: string): Promise<YearReviewAnswer> {
    const server = await this.context.requireServer(serverId);
    const timeZone = this.context.timeZone(query.timeZone);
    const input = { year: query.year, timeZone, userId: query.userId ?? null };
    return this.context.cachedContent(server, 'yearInReview', input, () => this.compute(server.serverId, input));
  }

  /** The review as a shareable PNG card, with a download name. */
  async card(query: YearReviewQuery, serverId?: string): Promise<{ png: Buffer; fileName: string }> {
    const review = await this.review(query, serverId);
    const server = await this.context.requireServer(serverId);
    const [row] = await this.db.query<{ name: string }>('SELECT name FROM media_servers WHERE id = $1', [server.serverId]);
    const who = (review.UserName ?? 'server').replace(/[^A-Za-z0-9._-]+/g, '_');
    return { png: yearReviewPng(review, row?.name ?? 'Media server'), fileName: `reelstat-${review.Year}-${who}.png` };
  }

  /**
   * The tops: items and series from the year's ranked rows (play_year_tops) for the server, from the year's plays
   * for a user; genres from their rollup.
   */
  private async tops(serverId: string, year: number, timeZone: string, userId: string | null) {
    const [top, genres] = await Promise.all([
      userId ? topsOfYear(this.db, serverId, year, timeZone, userId) : topsFromYearRollup(this.db, serverId, year, timeZone),
      genresOfYear(this.db, serverId, year, timeZone, userId),
    ]);
    return { ...top, genres };
  }

  private async compute(serverId: string, { year, timeZone, userId }: { year: number; timeZone: string; userId: string | null }) {
    let userName: string | null = null;
    if (userId) {
      const [user] = await this.db.query<{ name: string }>('SELECT name FROM media_users WHERE server_id = $1 AND id = $2', [
        serverId,
        userId,
      ]);
      if (!user) throw AppError.notFound(`No user has the Id ${userId} on this media server`);
      userName = user.name;
    }
    // A user's review compares with the server's totals only: not the server's busiest day or hour.
    const [server, active, own, top, binge, ends] = await Promise.all([
      userId ? serverTotalsOfYear(this.db, serverId, year, timeZone) : serverYear(this.db, serverId, year, timeZone),
      activeUsers(this.db, serverId, year, timeZone),
      userId ? userYearFromHistory(this.db, serverId, year, timeZone, userId) : undefined,
      this.tops(serverId, year, timeZone, userId),
      longestBinge(this.db, serverId, year, timeZone, userId),
      firstAndLast(this.db, serverId, year, timeZone, userId),
    ]);
    const figures = own ?? ('busiestDay' in server ? server : { total: server, busiestDay: null, busiestHour: null });
    const serverTotal = 'total' in server ? server.total : server;
    const moment = (value: typeof ends.first) => (value ? { Date: value.date, Title: value.title, UserName: value.userName } : null);
    return {
      Year: year,
      TimeZone: timeZone,
      UserId: userId,
      UserName: userName,
      Plays: figures.total.plays,
      WatchSeconds: figures.total.seconds,
      TopItems: top.items.map(ranked),
      TopSeries: top.series.map(ranked),
      TopGenres: top.genres.map((row) => ({ Genre: row.genre, Plays: row.plays, WatchSeconds: row.seconds })),
      BusiestDay: figures.busiestDay
        ? { Date: figures.busiestDay.date, Plays: figures.busiestDay.plays, WatchSeconds: figures.busiestDay.seconds }
        : null,
      BusiestHour: figures.busiestHour
        ? { Hour: figures.busiestHour.hour, Plays: figures.busiestHour.plays, WatchSeconds: figures.busiestHour.seconds }
        : null,
      LongestBinge: binge
        ? {
            UserId: binge.userId,
            UserName: binge.userName,
            Start: binge.start,
            End: binge.end,
            Title: binge.title,
            Plays: binge.plays,
            WatchSeconds: binge.seconds,
          }
        : null,
      FirstPlay: moment(ends.first),
      LastPlay: moment(ends.last),
      Server: {
        Plays: serverTotal.plays,
        WatchSeconds: serverTotal.seconds,
        ActiveUsers: active,
        AveragePlaysPerUser: active ? Math.round((serverTotal.plays / active) * 10) / 10 : 0,
        AverageWatchSecondsPerUser: active ? Math.round(serverTotal.seconds / active) : 0,
      },
    };
  }
}
