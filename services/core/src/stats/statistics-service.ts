import type { Database } from '../db/database.js';
import { libraryItemsWithStats } from '../library/item-queries.js';
import { libraryCards, libraryMetadata, libraryOverview } from '../library/library-queries.js';
import { playMethodCounts, topClients, topItems, topLibraries, topUsers, type CardType } from './card-queries.js';
import { viewsChart, type ChartKind } from './chart-queries.js';
import { allUserActivity, globalStats, lastPlayed, libraryGenres, playMethodWindow, userGenres } from './scope-queries.js';
import type { StatisticsContext, ServerContext } from './statistics-context.js';

/** A window of days ending now, in a time zone (the configured TZ when absent). */
export interface DaysWindow {
  days: number;
  tz?: string | undefined;
}

const NO_PLAYS = { Plays: 0, total_playback_duration: 0 };

/**
 * The statistics of SPEC.md §7 `/stats/*`: which media server they read (a server id in, the default one when
 * absent), which answers are cached (see AnswerCache) and the wire shape of each answer. Without a linked
 * server every read answers its empty shape.
 */
export class StatisticsService {
  constructor(
    private readonly db: Database,
    private readonly context: StatisticsContext,
  ) {}

  mostViewedByType(input: DaysWindow & { type: CardType }, serverId?: string) {
    return this.topItemsBy('plays', input, serverId);
  }

  mostPopularByType(input: DaysWindow & { type: CardType }, serverId?: string) {
    return this.topItemsBy('viewers', input, serverId);
  }

  mostViewedLibraries(input: DaysWindow, serverId?: string) {
    return this.dayWindow(serverId, [], 'topLibraries', input, (server, tz) => topLibraries(this.db, server.serverId, tz, input.days));
  }

  mostUsedClients(input: DaysWindow, serverId?: string) {
    return this.dayWindow(serverId, [], 'topClients', input, (server, tz) => topClients(this.db, server.serverId, tz, input.days));
  }

  mostActiveUsers(input: DaysWindow, serverId?: string) {
    return this.dayWindow(serverId, [], 'topUsers', input, (server, tz) => topUsers(this.db, server.serverId, tz, input.days));
  }

  playbackMethods(input: DaysWindow, serverId?: string) {
    return this.dayWindow(serverId, [], 'playMethodCounts', input, (server, tz) =>
      playMethodCounts(this.db, server.serverId, tz, input.days),
    );
  }

  /** Every client of the window, not only the top five: what "All servers" sums before it ranks. */
  everyClient(input: DaysWindow, serverId?: string) {
    return this.dayWindow(serverId, [], 'everyClient', input, (server, tz) => topClients(this.db, server.serverId, tz, input.days, null));
  }

  libraryOverview(serverId?: string) {
    return this.content(serverId, [], 'libraryOverview', null, (server) => libraryOverview(this.db, server.serverId));
  }

  libraryMetadata(serverId?: string) {
    return this.content(serverId, [], 'libraryMetadata', null, (server) => libraryMetadata(this.db, server.serverId));
  }

  libraryCards(serverId?: string) {
    return this.content(serverId, [], 'libraryCards', null, (server) => libraryCards(this.db, server.serverId));
  }

  allUserActivity(serverId?: string) {
    return this.content(serverId, [], 'allUserActivity', null, (server) => allUserActivity(this.db, server.serverId));
  }

  userLastPlayed(userId: string, serverId?: string) {
    return this.context.withServer(serverId, [], (server) => lastPlayed(this.db, server.serverId, 'user', userId));
  }

  libraryLastPlayed(libraryId: string, serverId?: string) {
    return this.context.withServer(serverId, [], (server) => lastPlayed(this.db, server.serverId, 'library', libraryId));
  }

  async userTotals(userId: string, hours: number, serverId?: string) {
    const totals = await this.context.withServer(serverId, NO_PLAYS, (server) =>
      globalStats(this.db, server.serverId, 'user', userId, hours),
    );
    return { ...totals, UserId: userId };
  }

  async libraryTotals(libraryId: string, hours: number, serverId?: string) {
    const totals = await this.context.withServer(serverId, NO_PLAYS, (server) =>
      globalStats(this.db, server.serverId, 'library', libraryId, hours, (key, compute) =>
        this.context.cachedContent(server, key, null, compute),
      ),
    );
    return { ...totals, LibraryId: libraryId };
  }

  async itemTotals(itemId: string, hours: number, serverId?: string) {
    const totals = await this.context.withServer(serverId, NO_PLAYS, (server) =>
      globalStats(this.db, server.serverId, 'item', itemId, hours),
    );
    return { ...totals, ItemId: itemId };
  }

  async userGenres(userId: string, serverId?: string) {
    return { results: await this.content(serverId, [], 'userGenres', userId, (server) => userGenres(this.db, server.serverId, userId)) };
  }

  async libraryGenres(libraryId: string, serverId?: string) {
    return {
      results: await this.content(serverId, [], 'libraryGenres', libraryId, (server) => libraryGenres(this.db, server.serverId, libraryId)),
    };
  }

  libraryItems(libraryId: string, serverId?: string) {
    return this.content(serverId, [], 'libraryItemsWithStats', libraryId, (server) =>
      libraryItemsWithStats(this.db, server.serverId, libraryId),
    );
  }

  libraryPlaybackMethods(libraryId: string, hours: number, serverId?: string) {
    return this.context.withServer(serverId, { stats: [], types: [] as string[] }, (server) =>
      playMethodWindow(this.db, server.serverId, libraryId, hours),
    );
  }

  /** Plays and watched seconds per library per day, weekday or hour of a window of days. */
  views(kind: ChartKind, input: DaysWindow, serverId?: string) {
    return this.context.withServer(serverId, { stats: [], libraries: [] }, (server) => {
      const tz = this.context.timeZone(input.tz);
      return this.context.cachedDayWindow(server, `views:${kind}`, tz, input.days, () =>
        viewsChart(this.db, server.serverId, tz, input.days, kind),
      );
    });
  }

  private topItemsBy(by: 'plays' | 'viewers', input: DaysWindow & { type: CardType }, serverId?: string) {
    return this.dayWindow(serverId, [], `topItems:${by}`, input, (server, tz) =>
      topItems(this.db, server.serverId, tz, input.days, input.type, by),
    );
  }

  /** A window of days in a zone, answered from the answer cache when nothing it depends on changed. */
  private dayWindow<T>(
    serverId: string | undefined,
    empty: T,
    call: string,
    input: DaysWindow,
    read: (server: ServerContext, tz: string) => Promise<T>,
  ): Promise<T> {
    return this.context.withServer(serverId, empty, (server) => {
      const tz = this.context.timeZone(input.tz);
      return this.context.cachedDayWindow(server, call, tz, input, () => read(server, tz));
    });
  }

  /** An answer that depends on the history and the content, not on the clock. */
  private content<T>(serverId: string | undefined, empty: T, call: string, input: unknown, read: (server: ServerContext) => Promise<T>) {
    return this.context.withServer(serverId, empty, (server) => this.context.cachedContent(server, call, input, () => read(server)));
  }
}
