import type { EventBus } from './event-bus.js';

/** Bus channel on which any role asks every API replica to push an event to its browsers. */
export const UI_EVENTS_CHANNEL = 'ui-events';

export interface UiEvent {
  /** socket.io event name, e.g. 'sessions', 'task-list', 'FullSyncTask'. */
  event: string;
  payload: unknown;
}

/**
 * Pushes an event to every connected (authenticated) browser, whichever process calls it: each API replica
 * relays it to its own sockets once.
 */
export async function publishUiEvent(bus: EventBus, event: string, payload: unknown): Promise<void> {
  await bus.publish<UiEvent>(UI_EVENTS_CHANNEL, { event, payload });
}
