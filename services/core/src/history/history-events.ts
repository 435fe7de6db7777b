import type { EventBus } from '../bus/event-bus.js';
import { publishUiEvent } from '../bus/ui-events.js';
import { HISTORY_CHANGED_EVENT, type HistoryChangedEvent } from '@reelstat/contract';
import type { Logger } from '../logging/logger.js';

/** The ids of a history row that pages show it under. */
export interface PlayIds {
  userId: string;
  itemId: string;
  seriesId: string | null;
  seasonId: string | null;
  libraryId: string | null;
}

/** Collects the ids of changed plays into one coalesced 'history' event (a commit, or a multi-batch import). */
export class HistoryChangeCollector {
  private readonly users = new Set<string>();
  private readonly libraries = new Set<string>();
  private readonly items = new Set<string>();

  constructor(private readonly serverId: string) {}

  add(plays: readonly PlayIds[]): this {
    for (const play of plays) {
      this.users.add(play.userId);
      if (play.libraryId) this.libraries.add(play.libraryId);
      for (const id of [play.itemId, play.seasonId, play.seriesId]) if (id) this.items.add(id);
    }
    return this;
  }

  /** The event, or undefined when nothing changed. */
  event(): HistoryChangedEvent | undefined {
    if (this.users.size === 0) return undefined;
    const sorted = (ids: Set<string>) => [...ids].sort();
    return { serverId: this.serverId, userIds: sorted(this.users), libraryIds: sorted(this.libraries), itemIds: sorted(this.items) };
  }
}

/** One 'history' event for everything a commit changed (coalesced: one event, however many plays). */
export function historyChange(serverId: string, plays: readonly PlayIds[]): HistoryChangedEvent | undefined {
  return new HistoryChangeCollector(serverId).add(plays).event();
}

/**
 * Tells every browser (through the bus, so every API replica relays it) that the history changed. Called
 * after the commit; a lost event costs only freshness (pages still poll), so a failure is logged, not thrown.
 */
export async function publishHistoryChange(bus: EventBus, change: HistoryChangedEvent | undefined, logger?: Logger): Promise<void> {
  if (!change) return;
  await publishUiEvent(bus, HISTORY_CHANGED_EVENT, change).catch((error: unknown) =>
    logger?.warn({ err: error }, 'could not publish the history event'),
  );
}
