import type { Migration } from './index.js';

/**
 * Webhooks (SPEC.md §3) and their deliveries, on the tables 0001 reserved. A delivery row is the outbox: it
 * is inserted in the same transaction as the event's cause (a play written, a sync page committed), so an
 * event is never lost if a process dies, and the dispatcher role sends it afterwards. A dispatcher claims due
 * rows with FOR UPDATE SKIP LOCKED and holds a lease (lease_token, lease_until) while sending: any number of
 * dispatchers never send one delivery at the same time, and a dead dispatcher's lease expires so another one
 * retries it with the same idempotency key.
 */
export const webhooks: Migration = {
  name: '0010-webhooks',
  async up({ sql }) {
    await sql(`
ALTER TABLE webhooks DROP CONSTRAINT IF EXISTS webhooks_webhook_type_check;
ALTER TABLE webhooks DROP CONSTRAINT IF EXISTS webhooks_event_type_check;
ALTER TABLE webhooks
  -- Per-type settings that are not secret (chat id, SMTP addresses, priority).
  ADD COLUMN options jsonb NOT NULL DEFAULT '{}',
  -- Optional filters: users, libraries, play methods (empty = all).
  ADD COLUMN filters jsonb NOT NULL DEFAULT '{}',
  -- Signing secret, bot token, app token or SMTP password, sealed with the secret box; never returned.
  ADD COLUMN secret_encrypted text;
-- last_triggered_at: the last scheduled run fired (the schedule's cursor).
CREATE INDEX webhooks_event ON webhooks (event_type) WHERE enabled AND trigger_type = 'event';

ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_status_check;
UPDATE webhook_deliveries SET status = 'dead' WHERE status = 'failed';
UPDATE webhook_deliveries SET next_attempt_at = created_at WHERE next_attempt_at IS NULL;
ALTER TABLE webhook_deliveries
  ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'sending', 'delivered', 'dead')),
  ALTER COLUMN next_attempt_at SET DEFAULT now(),
  ALTER COLUMN next_attempt_at SET NOT NULL,
  ADD COLUMN idempotency_key uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  ADD COLUMN lease_token uuid,
  ADD COLUMN lease_until timestamptz;
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (lease_until) WHERE status = 'sending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, id DESC);

-- Items a sync inserted into an already synced library, written in the page's transaction and turned into one
-- media_recently_added event when the run ends (or by the next run, if this one died first).
CREATE TABLE webhook_item_announcements (
  server_id  uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  item_id    text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_id, item_id)
);

-- Since when the activity monitor cannot reach the media server (NULL: reachable); its transitions fire the
-- media_server_unreachable and media_server_back webhooks, once each, whichever process polls.
ALTER TABLE media_servers ADD COLUMN unreachable_since timestamptz;
`);
  },
};
