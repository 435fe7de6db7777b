import type { OutgoingMessage } from './formatters/index.js';

/** The outcome of one attempt, as the retry policy needs it. */
export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** Network errors, timeouts, 408, 429 and 5xx are worth retrying; other refusals are not. */
  retryable: boolean;
  /** From a 429's (or 503's) Retry-After, in ms. */
  retryAfterMs: number | null;
}

export interface SendOptions {
  timeoutMs: number;
  /** Refuse link-local targets (169.254.0.0/16, fe80::/10: cloud metadata services) unless allowed. */
  allowLinkLocal: boolean;
  /** Response bodies are read up to this many bytes, then dropped. */
  maxResponseBytes: number;
  /** Secrets the message needs at send time (the SMTP password). */
  secret?: string | null;
  /** The webhook's URL and options, for senders that connect by themselves (SMTP). */
  target?: { url: string; options: Record<string, unknown> };
}

/**
 * Sends a formatted message. Two implementations: HttpNotifier (every HTTP type) and SmtpNotifier (email);
 * both pass notifier.contract.test.ts.
 */
export interface Notifier {
  readonly kind: OutgoingMessage['kind'];
  send(message: OutgoingMessage, options: SendOptions): Promise<SendResult>;
  /** Lets go of pooled connections (the dispatcher stops). */
  close?(): void;
}

export function failure(
  error: string,
  retryable: boolean,
  statusCode: number | null = null,
  retryAfterMs: number | null = null,
): SendResult {
  return { ok: false, statusCode, error, retryable, retryAfterMs };
}
