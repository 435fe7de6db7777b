import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import { newPlayKeyOf, type NewPlayInfo } from './play-state-machine.js';
import type { SessionSample } from './session-sample.js';

/** Item types that are never real viewing: cinema-mode pre-rolls and trailers. Extras (theme songs and videos, local trailers) carry ExtraType. */
const NOT_VIEWING_TYPES = new Set(['Trailer']);
const LIBRARY_CACHE_MS = 10 * 60_000;
const ITEM_CACHE_LIMIT = 20_000;
const MAX_PARENT_DEPTH = 6;

interface TrackingRow {
  item_id: string;
  user_id: string;
  user_tracked: boolean | null;
  library_id: string | null;
  library_tracked: boolean | null;
}

/**
 * Decides, once per play, which library it belongs to and whether it is recorded at all: untracked users and
 * libraries, theme media, trailers and pre-rolls are not. The library comes from the synced items table, or
 * from the media server (walking up the parents) when sync has not seen the item yet.
 */
export class PlayClassifier {
  private libraries: { ids: Promise<Set<string>>; loadedAt: number } | undefined;
  /**
   * The parent of each item asked for, as a promise: the episodes of one season share the request for the
   * season and the series, even while it is in flight. A request never waits for another, so a server whose
   * parents form a loop cannot make two walks wait for each other.
   */
  private readonly parents = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly db: Database,
    private readonly serverId: string,
    private readonly client: MediaServerClient,
    private readonly logger: Logger,
  ) {}

  async classify(samples: readonly SessionSample[]): Promise<Map<string, NewPlayInfo>> {
    const result = new Map<string, NewPlayInfo>();
    if (samples.length === 0) return result;
    const rows = await this.db.query<TrackingRow>(
      `SELECT s.item_id, s.user_id, u.tracked AS user_tracked, i.library_id, l.tracked AS library_tracked
       FROM json_to_recordset($2::json) AS s(item_id text, user_id text)
       LEFT JOIN media_users u ON u.server_id = $1 AND u.id = s.user_id
       LEFT JOIN items i ON i.server_id = $1 AND i.id = s.item_id
       LEFT JOIN libraries l ON l.server_id = $1 AND l.id = i.library_id`,
      [this.serverId, JSON.stringify(samples.map((s) => ({ item_id: s.itemId, user_id: s.userId })))],
    );
    const byPair = new Map(rows.map((row) => [`${row.user_id}\u0000${row.item_id}`, row]));
    // Where each unknown item's walk up the parents starts: an episode's session names its season (else its
    // series), whose parents are the episode's, so the episode itself need not be asked for.
    const unknownItems = new Map<string, string>();
    for (const sample of samples) {
      if (byPair.get(`${sample.userId}\u0000${sample.itemId}`)?.library_id) continue;
      unknownItems.set(sample.itemId, sample.snapshot.seasonId ?? sample.snapshot.seriesId ?? sample.itemId);
    }
    const fallback = await this.librariesFromServer(unknownItems);

    for (const sample of samples) {
      const row = byPair.get(`${sample.userId}\u0000${sample.itemId}`);
      const libraryId = row?.library_id ?? fallback.get(sample.itemId)?.libraryId ?? null;
      const libraryTracked = row?.library_id ? row.library_tracked : (fallback.get(sample.itemId)?.tracked ?? null);
      let excluded: string | null = null;
      if (sample.snapshot.extraType) excluded = `extra (${sample.snapshot.extraType})`;
      else if (sample.snapshot.itemType && NOT_VIEWING_TYPES.has(sample.snapshot.itemType)) excluded = 'trailer or pre-roll';
      else if (row?.user_tracked === false) excluded = 'untracked user';
      else if (libraryTracked === false) excluded = 'untracked library';
      result.set(newPlayKeyOf(sample), { libraryId, excluded });
    }
    return result;
  }

  /** The library of each item (keyed by item id; the value is where its walk starts). */
  private async librariesFromServer(
    walkStarts: ReadonlyMap<string, string>,
  ): Promise<Map<string, { libraryId: string | null; tracked: boolean | null }>> {
    const found = new Map<string, { libraryId: string | null; tracked: boolean | null }>();
    if (walkStarts.size === 0) return found;
    // Side by side (the client bounds the requests in flight): a poll waits for these, and a play that starts
    // meanwhile is first seen late.
    const entries = [...walkStarts];
    const libraries = await Promise.all(entries.map(([, start]) => this.libraryOf(start)));
    entries.forEach(([itemId], i) => found.set(itemId, { libraryId: libraries[i]!, tracked: null }));
    const libraryIds = [...new Set([...found.values()].map((v) => v.libraryId).filter((id): id is string => id !== null))];
    if (libraryIds.length > 0) {
      const rows = await this.db.query<{ id: string; tracked: boolean }>(
        'SELECT id, tracked FROM libraries WHERE server_id = $1 AND id = ANY($2::text[])',
        [this.serverId, libraryIds],
      );
      const tracked = new Map(rows.map((row) => [row.id, row.tracked]));
      for (const value of found.values()) if (value.libraryId) value.tracked = tracked.get(value.libraryId) ?? null;
    }
    return found;
  }

  /** The library of an item: the first parent that is a library, within MAX_PARENT_DEPTH parents; else null. */
  private async libraryOf(itemId: string): Promise<string | null> {
    try {
      const libraries = await this.libraryIds();
      let id = itemId;
      for (let depth = 0; depth < MAX_PARENT_DEPTH; depth++) {
        const parent = await this.parentOf(id);
        if (!parent) return null;
        if (libraries.has(parent)) return parent;
        id = parent;
      }
      return null;
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, itemId }, 'could not find the library of a playing item');
      return null;
    }
  }

  private parentOf(itemId: string): Promise<string | undefined> {
    const known = this.parents.get(itemId);
    if (known) return known;
    if (this.parents.size >= ITEM_CACHE_LIMIT) this.parents.clear();
    const request = this.client.getItem(itemId).then((item) => item.ParentId);
    this.parents.set(itemId, request);
    // A failed request is forgotten: the next play of this item asks again.
    request.catch(() => {
      if (this.parents.get(itemId) === request) this.parents.delete(itemId);
    });
    return request;
  }

  /** The server's library ids, asked for once for all the walks of a poll (and then every LIBRARY_CACHE_MS). */
  private libraryIds(): Promise<Set<string>> {
    if (this.libraries && Date.now() - this.libraries.loadedAt < LIBRARY_CACHE_MS) return this.libraries.ids;
    const ids = this.client.getLibraries().then((libraries) => new Set(libraries.map((library) => library.id)));
    const entry = { ids, loadedAt: Date.now() };
    this.libraries = entry;
    ids.catch(() => {
      if (this.libraries === entry) this.libraries = undefined;
    });
    return ids;
  }
}
