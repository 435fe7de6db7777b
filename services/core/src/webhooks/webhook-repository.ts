import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { WebhookFilters, WebhookOptions, WebhookType, WebhookEventType } from '@reelstat/contract';

/** A webhooks row, as the service and the dispatcher read it. The secret stays sealed here. */
export interface WebhookRow {
  id: number;
  name: string;
  url: string;
  webhook_type: WebhookType;
  trigger_type: 'scheduled' | 'event';
  event_type: WebhookEventType | null;
  schedule: string | null;
  method: 'POST' | 'PUT';
  enabled: boolean;
  options: WebhookOptions;
  filters: WebhookFilters;
  secret_encrypted: string | null;
  /** The full URL, sealed, when it holds a credential (then `url` is the masked form). */
  url_encrypted: string | null;
  last_triggered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type WebhookFields = Omit<WebhookRow, 'id' | 'created_at' | 'updated_at' | 'last_triggered_at'>;

const COLUMNS = `id, name, url, webhook_type, trigger_type, event_type, schedule, method, enabled, options, filters, secret_encrypted,
  url_encrypted, last_triggered_at, created_at, updated_at`;

export async function listWebhooks(db: Database): Promise<WebhookRow[]> {
  return db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks ORDER BY id`);
}

export async function findWebhook(db: Database, id: number, transaction?: Transaction): Promise<WebhookRow | undefined> {
  const [row] = await db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1`, [id], transaction);
  return row;
}

export async function insertWebhook(db: Database, fields: WebhookFields): Promise<WebhookRow> {
  const [row] = await db.query<WebhookRow>(
    `INSERT INTO webhooks (name, url, webhook_type, trigger_type, event_type, schedule, method, enabled, options, filters, secret_encrypted,
       url_encrypted, last_triggered_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, now())
     RETURNING ${COLUMNS}`,
    toBind(fields),
  );
  return row!;
}

export async function updateWebhook(db: Database, id: number, fields: WebhookFields): Promise<WebhookRow | undefined> {
  const [row] = await db.query<WebhookRow>(
    `UPDATE webhooks SET name = $1, url = $2, webhook_type = $3, trigger_type = $4, event_type = $5, schedule = $6, method = $7,
       enabled = $8, options = $9::jsonb, filters = $10::jsonb, secret_encrypted = $11, url_encrypted = $12, updated_at = now(),
       -- a schedule edited now counts from now: no run "missed" while it was different
       last_triggered_at = CASE WHEN schedule IS DISTINCT FROM $6 OR NOT enabled THEN now() ELSE last_triggered_at END
     WHERE id = $13
     RETURNING ${COLUMNS}`,
    [...toBind(fields), id],
  );
  return row;
}

export async function deleteWebhook(db: Database, id: number): Promise<boolean> {
  const rows = await db.query(`DELETE FROM webhooks WHERE id = $1 RETURNING id`, [id]);
  return rows.length > 0;
}

function toBind(fields: WebhookFields): unknown[] {
  return [
    fields.name,
    fields.url,
    fields.webhook_type,
    fields.trigger_type,
    fields.event_type,
    fields.schedule,
    fields.method,
    fields.enabled,
    JSON.stringify(fields.options),
    JSON.stringify(fields.filters),
    fields.secret_encrypted,
    fields.url_encrypted,
  ];
}
