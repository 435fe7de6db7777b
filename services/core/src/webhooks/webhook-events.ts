import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { WebhookEventType } from '@reelstat/contract';

export interface WebhookServer {
  id: string;
  name: string;
}

export interface PlaybackData {
  play_key: string;
  user: { id: string; name: string };
  item: {
    id: string;
    name: string;
    type: string | null;
    series_name: string | null;
    season_number: number | null;
    episode_number: number | null;
  };
  library_id: string | null;
  client: string | null;
  device_name: string | null;
  play_method: string;
  started_at: string;
  /** playback_ended only */
  ended_at?: string | null;
  played_seconds?: number;
  paused_seconds?: number;
}

export interface AddedItem {
  id: string;
  name: string;
  type: string;
  year?: number | null;
  date_created?: string | null;
}
export interface AddedSeries {
  id: string | null;
  name: string;
  episodes: Array<{ id: string; name: string; season_number: number | null; episode_number: number | null }>;
}
export interface RecentlyAddedData {
  total: number;
  movies: AddedItem[];
  series: AddedSeries[];
  other: AddedItem[];
}

export interface MonthlyReportData {
  period: { from: string; to: string; label: string; time_zone: string };
  plays: number;
  watch_seconds: number;
  active_users: number;
  top_items: Array<{ name: string; plays: number; watch_seconds: number }>;
  top_users: Array<{ name: string; plays: number; watch_seconds: number }>;
}

/** Every event a webhook can carry. `event` types of the toggles are SPEC.md §3's. */
export type WebhookEvent =
  | { event: 'playback_started' | 'playback_ended'; server: WebhookServer; occurred_at: string; data: PlaybackData }
  | { event: 'media_recently_added'; server: WebhookServer; occurred_at: string; data: RecentlyAddedData }
  | { event: 'task_failed'; server: WebhookServer | null; occurred_at: string; data: { task: string; error: string } }
  | {
      event: 'media_server_unreachable' | 'media_server_back';
      server: WebhookServer;
      occurred_at: string;
      data: { error: string | null };
    }
  | { event: 'monthly_report'; server: WebhookServer | null; occurred_at: string; data: MonthlyReportData }
  | { event: 'test'; server: null; occurred_at: string; data: { message: string } };

export type AnyEventName = WebhookEvent['event'];

/** What a per-webhook filter compares (users, libraries, play methods); absent = not applicable. */
function filterKeys(event: WebhookEvent): { user_id: string | null; library_id: string | null; play_method: string | null } {
  if (event.event === 'playback_started' || event.event === 'playback_ended') {
    return { user_id: event.data.user.id, library_id: event.data.library_id, play_method: event.data.play_method };
  }
  return { user_id: null, library_id: null, play_method: null };
}

/**
 * The outbox: turns events into one delivery row per matching enabled event webhook, in the caller's
 * transaction, so the delivery exists exactly when its cause was committed. Matching (event type, server,
 * filters) is one set-based statement; the dispatcher role sends the rows afterwards.
 * Returns how many deliveries were queued.
 */
export async function enqueueWebhookEvents(
  db: Database,
  transaction: Transaction | undefined,
  events: ReadonlyArray<WebhookEvent & { event: WebhookEventType }>,
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = events.map((event) => ({ event: event.event, payload: event, ...filterKeys(event) }));
  const [result] = await db.query<{ queued: number }>(
    `WITH incoming AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(event text, payload jsonb, user_id text, library_id text, play_method text)
     ), queued AS (
       INSERT INTO webhook_deliveries (webhook_id, event_type, payload)
       SELECT w.id, e.event, e.payload
       FROM incoming e
       JOIN webhooks w ON w.enabled AND w.trigger_type = 'event' AND w.event_type = e.event
       WHERE ${filterMatches('users', 'user_id')}
         AND ${filterMatches('libraries', 'library_id')}
         AND ${filterMatches('play_methods', 'play_method')}
       RETURNING 1
     )
     SELECT count(*)::int AS queued FROM queued`,
    [JSON.stringify(rows)],
    transaction,
  );
  return result?.queued ?? 0;
}

/** An empty or absent filter lets everything through; an event without that key is not filtered by it. */
function filterMatches(filter: string, key: string): string {
  return `(coalesce(jsonb_array_length(w.filters -> '${filter}'), 0) = 0 OR e.${key} IS NULL OR w.filters -> '${filter}' ? e.${key})`;
}

/** Queues one event for one webhook whatever its trigger (test button, schedules, monthly report). */
export async function enqueueForWebhook(db: Database, webhookId: number, event: WebhookEvent, transaction?: Transaction): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO webhook_deliveries (webhook_id, event_type, payload) VALUES ($1, $2, $3::jsonb) RETURNING id`,
    [webhookId, event.event, JSON.stringify(event)],
    transaction,
  );
  return Number(row!.id);
}
