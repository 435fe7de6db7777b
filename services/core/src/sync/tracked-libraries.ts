/** Which libraries the sync reads (SPEC.md "Library settings": GET /api/TrackedLibraries, POST /api/setExcludedLibraries). */
import { declaredTracking } from './declared-libraries.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import { LibrarySync } from './library-sync.js';
import { clientFor } from './sync-context.js';
import { SyncRepository, type LibraryRow } from './sync-repository.js';

export interface TrackedLibrary {
  Id: string;
  Name: string;
  CollectionType: string;
  Tracked: boolean;
}

export class TrackedLibraries {
  private readonly repo: SyncRepository;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {
    this.repo = new SyncRepository(db);
  }

  /**
   * The server's libraries (boxsets and playlists left out) with their tracked flag. The list is refreshed from
   * the media server first, so libraries can be excluded before the first sync; when the server cannot be
   * reached, the stored list is answered.
   */
  async list(link: MediaServerLink): Promise<TrackedLibrary[]> {
    const never = new AbortController().signal;
    const noop = async () => undefined;
    try {
      const sync = new LibrarySync(this.db, link, clientFor(link, this.logger), {
        signal: never,
        log: { info: noop, step: noop, success: noop, warn: noop, error: noop },
        progress: () => undefined,
      });
      return toAnswer(await sync.syncLibraries());
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, server: link.name }, 'library list not refreshed from the media server');
      return toAnswer(await this.repo.libraries(link.id));
    }
  }

  /** Flips one library between tracked and excluded; answers the whole list. */
  async toggle(link: MediaServerLink, libraryId: string): Promise<TrackedLibrary[]> {
    const current = (await this.repo.libraries(link.id)).find((l) => l.id === libraryId);
    if (!current) throw AppError.notFound(`Library ${libraryId} not found`);
    if (declaredTracking(link.settings, current) !== undefined) {
      const where = link.managedBy === 'kubernetes' ? `Kubernetes (${link.managedRef ?? 'MediaStatsServer'})` : 'the link settings';
      throw AppError.conflict(
        `Whether ${current.name} is tracked is managed by ${where}; change trackedLibraries/untrackedLibraries there`,
      );
    }
    await this.repo.setLibraryTracked(link.id, libraryId, !current.tracked);
    return toAnswer(await this.repo.libraries(link.id));
  }
}

function toAnswer(rows: LibraryRow[]): TrackedLibrary[] {
  return rows.filter((l) => !l.archived).map((l) => ({ Id: l.id, Name: l.name, CollectionType: l.collection_type, Tracked: l.tracked }));
}
