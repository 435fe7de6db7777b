import dns from 'node:dns/promises';
import nodemailer from 'nodemailer';
import type { OutgoingMessage } from './formatters/index.js';
import { failure, type Notifier, type SendOptions, type SendResult } from './notifier.js';
import { isLinkLocal, literalTargetProblem } from './target-address.js';

/**
 * Sends the email type over SMTP. The webhook URL names the server (smtp://host:port); options carry from,
 * to, security (starttls: required upgrade, tls: implicit TLS, none) and username; the password is the secret.
 * SMTP 4xx answers and connection failures are retried; 5xx answers are final.
 */
export class SmtpNotifier implements Notifier {
  readonly kind = 'email' as const;

  async send(message: OutgoingMessage, options: SendOptions): Promise<SendResult> {
    if (message.kind !== 'email') throw new Error('SmtpNotifier sends e-mails only');
    if (!options.target) throw new Error('SmtpNotifier needs the webhook target');
    const url = new URL(options.target.url);
    const settings = options.target.options as { from?: string; to?: string; security?: string; username?: string; tls_verify?: boolean };
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const blocked = literalTargetProblem(host, options.allowLinkLocal) ?? (await this.resolvedProblem(host, options.allowLinkLocal));
    if (blocked) return failure(blocked, false);
    const security = settings.security ?? (url.protocol === 'smtps:' ? 'tls' : 'starttls');
    const transport = nodemailer.createTransport({
      host,
      port: Number(url.port) || (security === 'tls' ? 465 : 587),
      secure: security === 'tls',
      requireTLS: security === 'starttls',
      ignoreTLS: security === 'none',
      auth: settings.username ? { user: settings.username, pass: options.secret ?? '' } : undefined,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
      tls: { rejectUnauthorized: settings.tls_verify !== false },
    });
    try {
      const info = await transport.sendMail({
        from: settings.from,
        to: settings.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      const code = Number(/^(\d{3})/.exec(String(info.response))?.[1] ?? 250);
      return { ok: true, statusCode: code, error: null, retryable: false, retryAfterMs: null };
    } catch (error) {
      const err = error as Error & { responseCode?: number };
      const code = err.responseCode ?? null;
      return failure(err.message, code === null || code < 500, code);
    } finally {
      transport.close();
    }
  }

  private async resolvedProblem(host: string, allowLinkLocal: boolean): Promise<string | null> {
    if (allowLinkLocal) return null;
    try {
      const addresses = await dns.lookup(host, { all: true });
      const bad = addresses.find((a) => isLinkLocal(a.address));
      return bad ? literalTargetProblem(bad.address, false) : null;
    } catch {
      return null; // the connection attempt reports the failure
    }
  }
}
