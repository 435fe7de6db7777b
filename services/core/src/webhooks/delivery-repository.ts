import type { Database } from '../db/database.js';
import type { WebhookDeliveryAnswer } from '@reelstat/contract';
import type { WebhookEvent } from './webhook-events.js';
import type { WebhookRow } from './webhook-repository.js';

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

/** Records a success. False when the claim was lost meanwhile (another dispatcher owns the row now). */
export async function markDelivered(db: Database, delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), lease_token = NULL, lease_until = NULL,
       last_status_code = $2, last_error = NULL
     WHERE id = $1 AND lease_token = $3 AND status = 'sending' RETURNING id`,
    [delivery.id, outcome.statusCode, delivery.lease_token],
  );
  return rows.length > 0;
}

/** Records a failed attempt: pending again after `retryInMs`, or dead when `retryInMs` is null. */
export async function markFailed(
  db: Database,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  retryInMs: number | null,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhook_deliveries SET status = CASE WHEN $4::double precision IS NULL THEN 'dead' ELSE 'pending' END,
       next_attempt_at = CASE WHEN $4::double precision IS NULL THEN next_attempt_at
                              ELSE now() + make_interval(secs => $4::double precision / 1000) END,
       lease_token = NULL, lease_until = NULL, last_status_code = $2, last_error = left($3, 1000)
     WHERE id = $1 AND lease_token = $5 AND status = 'sending' RETURNING id`,
    [delivery.id, outcome.statusCode, outcome.error, retryInMs, delivery.lease_token],
  );
  return rows.length > 0;
}

/** A dead delivery goes back to pending with a fresh attempt budget and the same idempotency key. */
export async function retryDeadDelivery(db: Database, webhookId: number, deliveryId: number): Promise<'retried' | 'not_dead' | 'missing'> {
  const rows = await db.query<{ status: string; retried: boolean }>(
    `WITH target AS (SELECT id, status FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2 FOR UPDATE),
     retried AS (
       UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
       FROM target WHERE d.id = target.id AND target.status = 'dead' RETURNING d.id
     )
     SELECT target.status, EXISTS (SELECT 1 FROM retried) AS retried FROM target`,
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
