/**
 * Mirrors one media server's users, libraries and items into PostgreSQL.
 *
 * Full sync, per tracked library: a library never synced is paged in full. A library already synced is
 * first listed cheaply (ids and Etags only) into a staging set; only new, changed, moved or archived
 * items are then fetched in full (or the whole library again when most of it changed). Items of a completely
 * listed library that the listing did not contain are archived by an anti-join; items that reappear are
 * un-archived by the upsert. Pages are written set-based, one transaction each, so stopping or failing
 * between pages leaves the database consistent and the next run completes the job.
 *
 * Partial sync: only items saved (minDateLastSaved) since the last sync started; see partialSince().
 */
import { declaredTracking } from './declared-libraries.js';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import type { BaseItemDto } from '../media-server/schemas/item.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import { IGNORED_ITEM_TYPES, itemPageRows, SYNC_ITEM_FIELDS } from './item-rows.js';
import { prefetched, type SyncReporter, type SyncTuning } from './sync-context.js';
import { SyncRepository, type LibraryRow, type SeenItem } from './sync-repository.js';
import { announceNewItems } from '../webhooks/recently-added-events.js';

/** Collection types that are not media libraries (their items are folders of other items). */
const IGNORED_COLLECTION_TYPES = new Set(['boxsets', 'playlists']);
/** Above this share of changed items, re-paging the library is cheaper than fetching by id. */
const REFETCH_ALL_SHARE = 0.3;
const IDS_PER_FETCH = 100;
/** Items whose name is copied onto their children. */
const PARENT_TYPES = new Set(['Series', 'Season', 'MusicAlbum']);
const LIST_FIELDS = ['Etag'] as const;
/** When the last successful sync of a server started (Reelstat's clock): where a partial sync resumes. */
const SYNC_STARTED_CURSOR = 'last_sync_started_at';
/** Allowed difference between Reelstat's clock and the media server's. */
const CLOCK_SKEW_MS = 10 * 60_000;

export interface SyncSummary {
  server: string;
  users: number;
  libraries: number;
  itemsListed: number;
  itemsWritten: number;
  archived: number;
}

export class LibrarySync {
  private readonly repo: SyncRepository;
  private wroteItems = false;
  private wroteParents = false;

  constructor(
    private readonly db: Database,
    private readonly link: MediaServerLink,
    private readonly client: MediaServerClient,
    private readonly reporter: SyncReporter,
    private readonly tuning: SyncTuning = {},
  ) {
    this.repo = new SyncRepository(db);
  }

  private get signal(): AbortSignal {
    return this.reporter.signal;
  }

  private get itemQueryExtras(): { isMissing?: boolean } {
    // Jellyfin lists virtual (missing) episodes to API keys: they are not media on disk.
    return this.link.kind === 'jellyfin' ? { isMissing: false } : {};
  }

  async syncUsers(): Promise<number> {
    const users = await this.client.getUsers({ signal: this.signal });
    await this.repo.upsertUsers(
      this.link.id,
      users.map((u) => ({
        id: u.Id,
        name: u.Name ?? '',
        is_administrator: u.Policy?.IsAdministrator ?? false,
        primary_image_tag: u.PrimaryImageTag ?? null,
        last_activity_at: u.LastActivityDate ?? null,
        last_login_at: u.LastLoginDate ?? null,
      })),
    );
    return users.length;
  }

  async syncLibraries(): Promise<LibraryRow[]> {
    const libraries = (await this.client.getLibraries({ signal: this.signal }))
      .map((l) => ({ id: l.id, name: l.name, collection_type: (l.collectionType ?? 'mixed').toLowerCase() }))
      .filter((l) => !IGNORED_COLLECTION_TYPES.has(l.collection_type));
    const rows = await this.repo.upsertLibraries(this.link.id, libraries);
    // Libraries declared tracked or untracked with the link (MediaStatsServer spec) win over the screen's flag.
    for (const row of rows) {
      const declared = declaredTracking(this.link.settings, row);
      if (declared === undefined || declared === row.tracked) continue;
      await this.repo.setLibraryTracked(this.link.id, row.id, declared);
      row.tracked = declared;
    }
    return rows;
  }

  async full(): Promise<SyncSummary> {
    const startedAt = new Date();
    const dbStartedAt = await this.repo.databaseNow();
    const { log } = this.reporter;
    const summary = this.emptySummary();
    summary.users = await this.syncUsers();
    await log.info(`${this.link.name}: ${summary.users} users`);
    const libraries = (await this.syncLibraries()).filter((l) => !l.archived);
    const tracked = libraries.filter((l) => l.tracked);
    summary.libraries = tracked.length;
    const skipped = libraries.filter((l) => !l.tracked).map((l) => l.name);
    await log.info(
      `${this.link.name}: ${tracked.length} tracked libraries${skipped.length ? ` (not tracked, skipped: ${skipped.join(', ')})` : ''}`,
    );
    const totals = await this.libraryTotals(tracked);
    const grandTotal = Math.max(
      1,
      [...totals.values()].reduce((a, b) => a + b, 0),
    );
    const runId = randomUUID();
    const complete: string[] = [];
    let done = 0;
    try {
      for (const library of tracked) {
        this.signal.throwIfAborted();
        const onProgress = (n: number) => this.reporter.progress(Math.min(0.99, (done + n) / grandTotal));
        const result = await this.fullLibrary(runId, library, onProgress);
        done += totals.get(library.id) ?? 0;
        summary.itemsListed += result.listed;
        summary.itemsWritten += result.written;
        if (result.complete) complete.push(library.id);
        await log.info(
          `${library.name}: ${result.listed} items listed, ${result.written} written (${result.mode})` +
            (result.complete ? '' : ' — the listing changed while it was read, nothing archived this time'),
        );
      }
      this.signal.throwIfAborted();
      summary.archived = await this.repo.archiveUnseen(runId, this.link.id, complete);
      summary.archived += await this.repo.archiveItemsOfArchivedLibraries(this.link.id);
      if (summary.archived) await log.warn(`${this.link.name}: ${summary.archived} items no longer on the server, archived`);
    } finally {
      await this.repo.clearStage(runId);
    }
    await this.finishDerived(dbStartedAt, summary.archived);
    await announceNewItems(this.db, { id: this.link.id, name: this.link.name });
    await this.repo.setCursor(this.link.id, SYNC_STARTED_CURSOR, startedAt.toISOString());
    this.reporter.progress(1);
    return summary;
  }

  async partial(): Promise<SyncSummary> {
    const startedAt = new Date();
    const dbStartedAt = await this.repo.databaseNow();
    const { log } = this.reporter;
    const summary = this.emptySummary();
    summary.users = await this.syncUsers();
    const tracked = (await this.syncLibraries()).filter((l) => !l.archived && l.tracked);
    summary.libraries = tracked.length;
    const since = await this.partialSince();
    await log.info(`${this.link.name}: items saved since ${since ? since.toISOString() : 'the beginning'}`);
    for (const [index, library] of tracked.entries()) {
      this.signal.throwIfAborted();
      // A library that was never synced (newly tracked) is read whole; the others from the cursor.
      const fresh = (await this.repo.liveItemCount(this.link.id, library.id)) === 0;
      let listed = 0;
      for await (const page of prefetched(
        this.client.iterateItems(
          { parentId: library.id, fields: SYNC_ITEM_FIELDS, minDateLastSaved: fresh ? undefined : since, ...this.itemQueryExtras },
          { pageSize: this.tuning.pageSize ?? 200, signal: this.signal },
        ),
      )) {
        this.signal.throwIfAborted();
        listed += page.items.length;
        summary.itemsWritten += await this.write(library.id, page.items, !fresh);
      }
      summary.itemsListed += listed;
      if (listed) await log.info(`${library.name}: ${listed} new or changed items${fresh ? ' (first sync of this library)' : ''}`);
      this.reporter.progress((index + 1) / Math.max(1, tracked.length));
    }
    await this.finishDerived(dbStartedAt);
    await announceNewItems(this.db, { id: this.link.id, name: this.link.name });
    await this.repo.setCursor(this.link.id, SYNC_STARTED_CURSOR, startedAt.toISOString());
    return summary;
  }

  /**
   * Items changed since the last sync have a DateLastSaved after it. Two lower bounds of that instant, the
   * larger wins: when the last sync started (our clock, less the allowed skew) and the newest DateCreated
   * stored then (the server's clock; a second early, as the filter's boundary is not documented).
   */
  private async partialSince(): Promise<Date | undefined> {
    const previous = await this.repo.cursor(this.link.id, SYNC_STARTED_CURSOR);
    const newest = await this.repo.newestCreated(this.link.id);
    const bounds = [previous ? Date.parse(previous) - CLOCK_SKEW_MS : NaN, newest ? newest.getTime() - 1000 : NaN].filter(
      (t) => !Number.isNaN(t),
    );
    return bounds.length ? new Date(Math.max(...bounds)) : undefined;
  }

  private emptySummary(): SyncSummary {
    return { server: this.link.name, users: 0, libraries: 0, itemsListed: 0, itemsWritten: 0, archived: 0 };
  }

  /** Derived data is recomputed only when this run changed something it derives from. */
  private async finishDerived(since: Date, archived = 0): Promise<void> {
    if (this.wroteParents) await this.repo.propagateParentNames(this.link.id, since);
    if (this.wroteItems || archived > 0) await this.repo.refreshLibraryCounts(this.link.id);
  }

  private async libraryTotals(libraries: LibraryRow[]): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    for (const library of libraries) {
      for await (const page of this.client.iterateItems(
        { parentId: library.id, fields: [], ...this.itemQueryExtras },
        { pageSize: 1, signal: this.signal },
      )) {
        totals.set(library.id, page.totalRecordCount);
        break;
      }
    }
    return totals;
  }

  private async fullLibrary(
    runId: string,
    library: LibraryRow,
    onProgress: (itemsDone: number) => void,
  ): Promise<{ listed: number; written: number; complete: boolean; mode: string }> {
    const alreadySynced = (await this.repo.liveItemCount(this.link.id, library.id)) > 0;
    if (!alreadySynced) {
      const paged = await this.pageWhole(runId, library, onProgress, false);
      return { ...paged, mode: 'first sync' };
    }
    // Re-sync: the cheap listing first, then only what changed.
    let listed = 0;
    let total = 0;
    for await (const page of prefetched(
      this.client.iterateItems(
        { parentId: library.id, fields: LIST_FIELDS, ...this.itemQueryExtras },
        { pageSize: this.tuning.listPageSize ?? 1000, signal: this.signal },
      ),
    )) {
      this.signal.throwIfAborted();
      listed += page.items.length;
      total = page.totalRecordCount;
      await this.repo.stageSeen(runId, this.link.id, library.id, seenOf(page.items));
      onProgress(listed / 2);
    }
    const changed = await this.repo.changedSeenIds(runId, this.link.id, library.id);
    const staged = await this.repo.seenCount(runId, library.id);
    if (changed.length > staged * REFETCH_ALL_SHARE) {
      const paged = await this.pageWhole(runId, library, (n) => onProgress(listed / 2 + n / 2), true);
      return { ...paged, complete: paged.complete && listed >= total, mode: `${changed.length} changed, library read again` };
    }
    let written = 0;
    for (let i = 0; i < changed.length; i += IDS_PER_FETCH * 5) {
      this.signal.throwIfAborted();
      const items = await this.client.getItemsByIds(changed.slice(i, i + IDS_PER_FETCH * 5), {
        fields: SYNC_ITEM_FIELDS,
        chunkSize: IDS_PER_FETCH,
        signal: this.signal,
      });
      written += await this.write(library.id, items, true);
      onProgress(listed / 2 + ((i + IDS_PER_FETCH * 5) / changed.length) * (listed / 2));
    }
    return { listed, written, complete: listed >= total, mode: `${changed.length} new or changed` };
  }

  /** Reads every item of the library in full, writing each page as it arrives. */
  private async pageWhole(
    runId: string,
    library: LibraryRow,
    onProgress: (itemsDone: number) => void,
    announceNew: boolean,
  ): Promise<{ listed: number; written: number; complete: boolean }> {
    let listed = 0;
    let written = 0;
    let total = 0;
    for await (const page of prefetched(
      this.client.iterateItems(
        { parentId: library.id, fields: SYNC_ITEM_FIELDS, ...this.itemQueryExtras },
        { pageSize: this.tuning.pageSize ?? 200, signal: this.signal },
      ),
    )) {
      this.signal.throwIfAborted();
      listed += page.items.length;
      total = page.totalRecordCount;
      written += await this.write(library.id, page.items, announceNew);
      await this.repo.stageSeen(runId, this.link.id, library.id, seenOf(page.items));
      onProgress(listed);
    }
    return { listed, written, complete: listed >= total };
  }

  /** announceNew: the library was synced before, so items new to it are news (not a first import). */
  private async write(libraryId: string, items: BaseItemDto[], announceNew: boolean): Promise<number> {
    const rows = itemPageRows(this.link.id, libraryId, items);
    await this.repo.writeItems(rows, { announceNew });
    if (rows.items.length) this.wroteItems = true;
    if (rows.items.some((i) => PARENT_TYPES.has(i.type))) this.wroteParents = true;
    return rows.items.length;
  }
}

function seenOf(items: BaseItemDto[]): SeenItem[] {
  return items.filter((i) => !IGNORED_ITEM_TYPES.includes(i.Type)).map((i) => ({ item_id: i.Id, etag: i.Etag ?? null }));
}
