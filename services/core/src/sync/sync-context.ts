import type { Logger } from '../logging/logger.js';
import { createMediaServerClient } from '../media-server/create-client.js';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import { usableApiKey, type MediaServerLink } from '../media-servers/media-server-links.js';
import type { TaskLogger } from '../tasks/task-types.js';

/** What a sync needs besides the database: where to report, and when to stop. */
export interface SyncReporter {
  signal: AbortSignal;
  log: TaskLogger;
  /** Fraction 0–1 of this server's work. */
  progress(fraction: number): void;
}

export interface SyncTuning {
  /** Items per page when fetching full items (default 200: two pages in memory at most, see prefetched). */
  pageSize?: number;
  /** Items per page of the id + Etag listing of a re-sync (default 1000). */
  listPageSize?: number;
}

/** A client for one linked server, with Reelstat's process logger. */
export function clientFor(link: MediaServerLink, logger?: Logger): MediaServerClient {
  return createMediaServerClient({
    kind: link.kind,
    url: link.url,
    apiKey: usableApiKey(link),
    logger: logger?.child({ component: 'media-server', server: link.name }),
  });
}

/**
 * Yields the source's values while it already fetches the next one, so the media server and the database
 * work at the same time. At most one value is held ahead, so memory stays bounded.
 */
export async function* prefetched<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const result = await next;
      if (result.done) return;
      next = iterator.next();
      // Observed later by the loop; a failure while the consumer is still busy must not be unhandled.
      next.catch(() => undefined);
      yield result.value;
    }
  } finally {
    await iterator.return?.(undefined)?.catch(() => undefined);
  }
}
