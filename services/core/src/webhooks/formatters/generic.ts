import { createHmac } from 'node:crypto';
import type { Formatter } from './outgoing.js';
import { jsonRequest } from './outgoing.js';

export const SIGNATURE_HEADER = 'x-reelstat-signature';
export const TIMESTAMP_HEADER = 'x-reelstat-timestamp';

/**
 * `sha256=` + hex HMAC-SHA256 over `<timestamp>.<body>` with the webhook's secret. The timestamp is inside the
 * signed text, so a receiver that rejects old timestamps also rejects replays of captured requests.
 */
export function signBody(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The generic type: the event as JSON (event, delivery id, time, server, data), signed when a secret is set. */
export const formatGeneric: Formatter = (event, context) => {
  const body = {
    event: event.event,
    delivery_id: context.idempotencyKey,
    occurred_at: event.occurred_at,
    server: event.server,
    data: event.data,
  };
  const message = jsonRequest(context, body, { 'x-reelstat-event': event.event, 'x-reelstat-delivery': context.idempotencyKey });
  if (message.kind === 'http' && context.secret) {
    const timestamp = String(Math.floor(context.now.getTime() / 1000));
    message.headers[TIMESTAMP_HEADER] = timestamp;
    message.headers[SIGNATURE_HEADER] = signBody(context.secret, timestamp, message.body);
  }
  return message;
};
