import type { Migration } from './index.js';

/**
 * Wakes idle dispatchers when deliveries are queued, instead of making them poll often: a statement-level
 * trigger sends one NOTIFY per inserting statement (PostgreSQL folds identical notifications of a
 * transaction into one and sends it at commit, so a dispatcher never wakes for rows it cannot see yet).
 * Dispatchers LISTEN on the channel; polling stays as the fallback for due retries and lost connections.
 * Also: webhook URLs that hold credentials are stored sealed (url_encrypted), like the other secrets.
 */
export const webhookDeliveryWakeup: Migration = {
  name: '0012-webhook-delivery-wakeup',
  async up({ sql }) {
    await sql(`
CREATE FUNCTION reelstat_notify_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An event no webhook wanted inserts nothing: no reason to wake anyone.
  IF EXISTS (SELECT 1 FROM queued) THEN
    PERFORM pg_notify('reelstat_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_deliveries_queued AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS queued FOR EACH STATEMENT EXECUTE FUNCTION reelstat_notify_webhook_deliveries();

-- A URL that holds a credential (Discord's and Slack's tokens, a password, ?token=) is kept sealed here and
-- shown masked in url; url_encrypted is NULL when the URL holds none.
ALTER TABLE webhooks ADD COLUMN url_encrypted text;
`);
  },
};
