import type { Database } from '../db/database.js';
import type { WebhookDeliveryAnswer } from '@reelstat/contract';
import type { WebhookEvent } from './webhook-events.js';
import type { WebhookRow } from './webhook-repository.js';
import { DELIVERY_CHANNEL } from './delivery-wakeup.js';

/** A delivery claimed by one dispatcher, with its webhook. */
export interface ClaimedDelivery {
  id: number;
  event: string;
  payload: WebhookEvent;
  idempotency_key: string;
  attempts: number;
  created_at: Date;
  lease_token: string;
  webhook: WebhookRow;
}

/**
 * Claims up to `limit` due deliveries: pending ones whose time has come, and sending ones whose lease expired
 * (their dispatcher died mid-delivery). FOR UPDATE SKIP LOCKED lets any number of dispatchers claim at once
 * without waiting for or taking each other's rows; the lease token makes the later completion conditional on
 * still holding the claim.
 */
export async function claimDeliveries(db: Database, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const rows = await db.query<Omit<ClaimedDelivery, 'webhook'> & { webhook: WebhookRow }>(
    `WITH due AS (
       SELECT id FROM (
         (SELECT id, next_attempt_at AS at FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT $1)
         UNION ALL
         (SELECT id, lease_until AS at FROM webhook_deliveries WHERE status = 'sending' AND lease_until < now() ORDER BY lease_until LIMIT $1)
       ) candidates ORDER BY at LIMIT $1
     ), claimed AS (
       UPDATE webhook_deliveries d
       SET status = 'sending', attempts = d.attempts + 1, lease_token = gen_random_uuid(),
           lease_until = now() + make_interval(secs => $2::double precision / 1000)
       WHERE d.id IN (
         SELECT id FROM webhook_deliveries WHERE id IN (SELECT id FROM due)
           AND (status = 'pending' OR (status = 'sending' AND lease_until < now()))
         FOR UPDATE SKIP LOCKED
       )
       RETURNING d.id, d.webhook_id, d.event_type AS event, d.payload, d.idempotency_key, d.attempts, d.created_at, d.lease_token
     )
     SELECT c.id, c.event, c.payload, c.idempotency_key, c.attempts, c.created_at, c.lease_token, to_jsonb(w) AS webhook
     FROM claimed c JOIN webhooks w ON w.id = c.webhook_id
     ORDER BY c.id`,
    [limit, leaseMs],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Keeps the claims this dispatcher is still working on (waiting for a host slot, or sending). */
export async function renewLeases(db: Database, tokens: string[], leaseMs: number): Promise<void> {
  if (tokens.length === 0) return;
  await db.query(
    `UPDATE webhook_deliveries SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
     WHERE lease_token = ANY($1::uuid[]) AND status = 'sending' RETURNING id`,
    [tokens, leaseMs],
  );
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

/** The end of one attempt: delivered, pending again after `retryInMs`, or dead. */
export interface Completion {
  id: number;
  lease_token: string;
  status: 'delivered' | 'pending' | 'dead';
  status_code: number | null;
  error: string | null;
  /** pending only: when to try again. */
  retry_in_ms: number | null;
}

/**
 * Records the outcomes of many attempts in one statement. Each row changes only while its lease is still held
 * (same token, still sending); returns the ids that did change, so an outcome whose claim was lost meanwhile
 * (another dispatcher owns the row now) is not counted twice.
 */
export async function completeDeliveries(db: Database, completions: readonly Completion[]): Promise<Set<number>> {
  if (completions.length === 0) return new Set();
  const rows = await db.query<{ id: number }>(
    `UPDATE webhook_deliveries d SET status = c.status,
       delivered_at = CASE WHEN c.status = 'delivered' THEN now() ELSE d.delivered_at END,
       next_attempt_at = CASE WHEN c.status = 'pending' THEN now() + make_interval(secs => c.retry_in_ms / 1000) ELSE d.next_attempt_at END,
       lease_token = NULL, lease_until = NULL, last_status_code = c.status_code, last_error = left(c.error, 1000)
     FROM jsonb_to_recordset($1::jsonb) AS c(id bigint, lease_token uuid, status text, status_code integer, error text,
       retry_in_ms double precision)
     WHERE d.id = c.id AND d.lease_token = c.lease_token AND d.status = 'sending'
     RETURNING d.id`,
    [JSON.stringify(completions)],
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/** A dead delivery goes back to pending with a fresh attempt budget and the same idempotency key. */
export async function retryDeadDelivery(db: Database, webhookId: number, deliveryId: number): Promise<'retried' | 'not_dead' | 'missing'> {
  const rows = await db.query<{ status: string; retried: boolean }>(
    `WITH target AS (SELECT id, status FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2 FOR UPDATE),
     retried AS (
       UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
       FROM target WHERE d.id = target.id AND target.status = 'dead' RETURNING d.id
     )
     -- wake the dispatchers as a queued delivery does (sent at commit)
     SELECT target.status, EXISTS (SELECT 1 FROM retried) AS retried,
       (SELECT pg_notify('${DELIVERY_CHANNEL}', '') FROM retried) IS NULL AS notified FROM target`,
    [deliveryId, webhookId],
  );
  const [row] = rows;
  if (!row) return 'missing';
  return row.retried ? 'retried' : 'not_dead';
}

export async function listDeliveries(
  db: Database,
  webhookId: number,
  page: number,
  size: number,
): Promise<{ results: WebhookDeliveryAnswer[]; total: number }> {
  const rows = await db.query<WebhookDeliveryAnswer & { total: number }>(
    `SELECT id::int, event_type AS event, status, attempts, last_status_code, last_error,
       CASE WHEN status = 'pending' THEN to_char(next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS next_attempt_at,
       idempotency_key::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
       to_char(delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS delivered_at,
       count(*) OVER ()::int AS total
     FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [webhookId, size, (page - 1) * size],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM webhook_deliveries WHERE webhook_id = $1`, [
      webhookId,
    ]);
    total = count?.total ?? 0;
  }
  return { results: rows.map(({ total: _total, ...row }) => row), total };
}

export async function countDeadDeliveries(db: Database): Promise<number> {
  const [row] = await db.query<{ dead: number }>(`SELECT count(*)::int AS dead FROM webhook_deliveries WHERE status = 'dead'`);
  return row?.dead ?? 0;
}
