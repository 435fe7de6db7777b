import type { Database } from '../db/database.js';
import type { EventBus } from '../bus/event-bus.js';
import { AppError } from '../errors/app-error.js';
import type { StatisticsContext } from '../stats/statistics-context.js';
import { episodesOf, itemDetails, seasonsOf } from './item-queries.js';
import { libraryCards, libraryList } from './library-queries.js';
import { ownPlaysOf, ownWindowOf, type OwnScope } from './own-plays.js';
import { purgeItem, purgeLibrary, type PurgeResult } from './purge.js';
import { recentlyAdded } from './recently-added.js';
import { activityTimeline } from './timeline.js';
import { userDetails } from './user-details.js';

function purgeMessage(what: string, result: PurgeResult) {
  return `Purged ${what}: ${result.items} item${result.items === 1 ? '' : 's'} and ${result.plays} play${result.plays === 1 ? '' : 's'} removed`;
}

/**
 * Libraries, users and items of SPEC.md §7 (details, lists, the timeline, purges): which media server they
 * read (a server id in, the default one when absent), 404s for what does not exist, and the wire shapes.
 * Lists answer empty without a linked server; single objects and purges answer 409.
 */
export class LibraryService {
  constructor(
    private readonly db: Database,
    private readonly context: StatisticsContext,
    /** Tells browsers what a delete or purge changed (the 'history' socket event); absent in unit tests. */
    private readonly bus?: EventBus,
  ) {}

  libraries(serverId?: string) {
    return this.context.withServer(serverId, [], (server) => libraryList(this.db, server.serverId));
  }

  recentlyAdded(options: { group: boolean; libraryId?: string | undefined; limit?: number | undefined }, serverId?: string) {
    return this.context.withServer(serverId, [], (server) =>
      this.context.cachedContent(server, 'recentlyAdded', options, () =>
        recentlyAdded(this.db, server.serverId, { group: options.group, libraryId: options.libraryId, limit: options.limit }),
      ),
    );
  }

  async user(userId: string, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const user = await userDetails(this.db, server.serverId, userId);
    if (!user) throw AppError.notFound('User not found');
    return user;
  }

  async library(libraryId: string, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const [library] = await libraryCards(this.db, server.serverId, libraryId);
    if (!library) throw AppError.notFound('Library not found');
    return library;
  }

  /** One item as a one-element array (SPEC's shape), with its all-time plays. */
  async item(itemId: string, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const item = await itemDetails(this.db, server.serverId, itemId);
    if (!item) throw AppError.notFound('Item not found');
    return [item];
  }

  /** A user's own all-time plays of each item or library (what a viewer's item and library pages show). */
  async ownPlays(userId: string, scope: OwnScope, ids: string[], serverId?: string) {
    const server = await this.context.requireServer(serverId);
    return ownPlaysOf(this.db, server.serverId, userId, scope, ids);
  }

  /** A user's own plays of an item or library over the last hours (getGlobalItemStats for a viewer). */
  async ownTotals(userId: string, scope: OwnScope, id: string, hours: number, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    return ownWindowOf(this.db, server.serverId, userId, scope, id, hours);
  }

  seasons(seriesId: string, serverId?: string) {
    return this.context.withServer(serverId, [], (server) => seasonsOf(this.db, server.serverId, seriesId));
  }

  episodes(parentId: string, serverId?: string) {
    return this.context.withServer(serverId, [], (server) => episodesOf(this.db, server.serverId, parentId));
  }

  timeline(userId: string, libraryIds: string[], serverId?: string) {
    return this.context.withServer(serverId, [], (server) => activityTimeline(this.db, server.serverId, userId, libraryIds));
  }

  /** Removes a library and its items (and with withActivity its plays); 404 when there was nothing to remove. */
  async purgeLibrary(libraryId: string, withActivity: boolean, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const result = await purgeLibrary(this.db, server.serverId, libraryId, { withActivity, keepLibrary: false }, this.bus);
    this.context.answers.clear();
    if (result.libraries === 0 && result.items === 0 && result.plays === 0) throw AppError.notFound('Library not found');
    return { message: purgeMessage('library', result), ...result };
  }

  /** Removes a library's items (the library stays), and with withActivity their plays. */
  async purgeLibraryItems(libraryId: string, withActivity: boolean, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const result = await purgeLibrary(this.db, server.serverId, libraryId, { withActivity, keepLibrary: true }, this.bus);
    this.context.answers.clear();
    return { message: purgeMessage('library items', result), ...result };
  }

  /** Removes an item (a series or season with its children); 404 when there was nothing to remove. */
  async purgeItem(itemId: string, withActivity: boolean, serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const result = await purgeItem(this.db, server.serverId, itemId, withActivity, this.bus);
    this.context.answers.clear();
    if (result.items === 0 && result.plays === 0) throw AppError.notFound('Item not found');
    return { message: purgeMessage('item', result), ...result };
  }
}
