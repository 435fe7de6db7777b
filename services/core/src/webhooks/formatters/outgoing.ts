import type { WebhookEvent } from '../webhook-events.js';
import type { WebhookRow } from '../webhook-repository.js';

/** What a formatter produces: an HTTP request, or an e-mail. Senders never look inside the event. */
export type OutgoingMessage =
  | { kind: 'http'; method: 'POST' | 'PUT'; url: string; headers: Record<string, string>; body: string }
  | { kind: 'email'; subject: string; text: string; html: string };

export interface FormatContext {
  webhook: Pick<WebhookRow, 'id' | 'url' | 'method' | 'options' | 'webhook_type'>;
  /** The webhook's opened secret (signing secret, token, password), if any. */
  secret: string | null;
  /** The same on every attempt of one delivery. */
  idempotencyKey: string;
  now: Date;
}

export type Formatter = (event: WebhookEvent, context: FormatContext) => OutgoingMessage;

export function jsonRequest(
  context: FormatContext,
  body: unknown,
  headers: Record<string, string> = {},
  url = context.webhook.url,
): OutgoingMessage {
  return {
    kind: 'http',
    method: context.webhook.method,
    url,
    headers: { 'content-type': 'application/json', 'idempotency-key': context.idempotencyKey, ...headers },
    body: JSON.stringify(body),
  };
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
