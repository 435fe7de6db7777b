import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { SecretBox } from '../security/secret-box.js';
import {
  DEFAULT_WEBHOOK_SCHEDULE,
  webhookProblem,
  type WebhookAnswer,
  type WebhookBody,
  type WebhookDeliveryAnswer,
} from '@reelstat/contract';
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listWebhooks,
  updateWebhook,
  type WebhookFields,
  type WebhookRow,
} from './webhook-repository.js';
import { listDeliveries, retryDeadDelivery } from './delivery-repository.js';
import { nextRuns, parseSchedule } from './cron-schedule.js';
import { enqueueForWebhook } from './webhook-events.js';
import { buildReport, previousMonth } from './monthly-report.js';
import { maskUrl, shownUrl, URL_MASK } from './url-secrets.js';

const maskedPartMessage = `The URL's hidden part (${URL_MASK}) can only be kept with the rest of the URL unchanged: enter the whole URL again`;

const HTTP_TYPES = new Set(['discord', 'generic', 'ntfy', 'gotify', 'slack', 'telegram']);

/**
 * The Webhooks tab's operations (SPEC.md §7): list, create, update, delete, test, monthly report, delivery
 * log and retry. Validation answers SPEC.md §5's texts; secrets are sealed and never returned.
 */
export class WebhookService {
  constructor(
    private readonly db: Database,
    private readonly secretBox: SecretBox,
    private readonly timeZone: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<WebhookAnswer[]> {
    return (await listWebhooks(this.db)).map((row) => this.toAnswer(row));
  }

  async get(id: number): Promise<WebhookRow> {
    const row = await findWebhook(this.db, id);
    if (!row) throw AppError.notFound(`Webhook ${id} not found`);
    return row;
  }

  async create(body: WebhookBody): Promise<WebhookAnswer & { generated_secret?: string }> {
    const merged = {
      name: body.name ?? '',
      url: body.url ?? '',
      webhook_type: body.webhook_type ?? 'discord',
      trigger_type: body.trigger_type ?? 'scheduled',
      event_type: body.event_type ?? null,
      schedule: body.schedule ?? null,
      method: body.method ?? 'POST',
      enabled: body.enabled ?? true,
      options: body.options ?? {},
      filters: body.filters ?? {},
      secret_encrypted: null,
      url_encrypted: null,
    } satisfies WebhookFields;
    let secret = body.secret || null;
    let generated: string | undefined;
    if (!secret && merged.webhook_type === 'generic') secret = generated = randomBytes(32).toString('base64url');
    if (merged.url.includes(URL_MASK)) throw AppError.badRequest(maskedPartMessage);
    const fields = this.validated({ ...merged, secret_encrypted: secret ? this.secretBox.seal(secret) : null });
    const row = await insertWebhook(this.db, this.withSealedUrl(fields));
    return { ...this.toAnswer(row), ...(generated ? { generated_secret: generated } : {}) };
  }

  async update(id: number, body: WebhookBody): Promise<WebhookAnswer> {
    const existing = await this.get(id);
    const pick = <K extends keyof WebhookBody & keyof WebhookFields>(key: K) => (body[key] === undefined ? existing[key] : body[key]);
    const secretEncrypted =
      body.secret === undefined ? existing.secret_encrypted : body.secret === '' ? null : this.secretBox.seal(body.secret);
    const fields = this.validated({
      name: (pick('name') as string | null) ?? '',
      url: this.editedUrl(existing, body.url),
      webhook_type: pick('webhook_type') as WebhookFields['webhook_type'],
      trigger_type: pick('trigger_type') as WebhookFields['trigger_type'],
      event_type: (pick('event_type') as WebhookFields['event_type']) ?? null,
      schedule: (pick('schedule') as string | null) ?? null,
      method: pick('method') as WebhookFields['method'],
      enabled: pick('enabled') as boolean,
      options: pick('options') as WebhookFields['options'],
      filters: pick('filters') as WebhookFields['filters'],
      secret_encrypted: secretEncrypted,
      url_encrypted: null,
    });
    const row = await updateWebhook(this.db, id, this.withSealedUrl(fields));
    if (!row) throw AppError.notFound(`Webhook ${id} not found`);
    return this.toAnswer(row);
  }

  async delete(id: number): Promise<void> {
    if (!(await deleteWebhook(this.db, id))) throw AppError.notFound(`Webhook ${id} not found`);
  }

  /** Queues a test message; the dispatcher sends it like any delivery (it shows in the delivery log). */
  async test(id: number): Promise<{ message: string; delivery_id: number }> {
    const webhook = await this.get(id);
    const deliveryId = await enqueueForWebhook(this.db, id, {
      event: 'test',
      server: null,
      occurred_at: this.now().toISOString(),
      data: { message: `Test of the webhook "${webhook.name}" from Reelstat.` },
    });
    return { message: `Webhook ${webhook.name} test triggered successfully!`, delivery_id: deliveryId };
  }

  /** Sends the report of the past calendar month (server time zone) now, whatever the webhook's trigger. */
  async triggerMonthly(id: number): Promise<{ message: string; delivery_id: number }> {
    const webhook = await this.get(id);
    const { from, to } = await previousMonth(this.db, this.timeZone, this.now());
    const data = await buildReport(this.db, from, to, this.timeZone);
    const deliveryId = await enqueueForWebhook(this.db, id, {
      event: 'monthly_report',
      server: null,
      occurred_at: this.now().toISOString(),
      data,
    });
    return { message: `Monthly report of ${data.period.label} queued for webhook ${webhook.name}`, delivery_id: deliveryId };
  }

  async deliveries(
    id: number,
    page: number,
    size: number,
  ): Promise<{ results: WebhookDeliveryAnswer[]; pages: number; current_page: number; size: number }> {
    await this.get(id);
    const { results, total } = await listDeliveries(this.db, id, page, size);
    return { results, pages: Math.ceil(total / size), current_page: page, size };
  }

  async retryDelivery(id: number, deliveryId: number): Promise<{ message: string }> {
    const outcome = await retryDeadDelivery(this.db, id, deliveryId);
    if (outcome === 'missing') throw AppError.notFound(`Delivery ${deliveryId} of webhook ${id} not found`);
    if (outcome === 'not_dead') throw AppError.conflict(`Delivery ${deliveryId} is not dead: only dead deliveries can be retried`);
    return { message: `Delivery ${deliveryId} queued again` };
  }

  schedulePreview(schedule: string): { next_runs: string[]; time_zone: string } {
    return { next_runs: nextRuns(schedule, this.timeZone, this.now()).map((d) => d.toISOString()), time_zone: this.timeZone };
  }

  /**
   * The full URL an update means: the stored one when the form sent back what it was shown (the masked URL)
   * or nothing; the new one otherwise. A masked URL that was changed elsewhere cannot be completed: 400.
   */
  private editedUrl(existing: WebhookRow, sent: string | null | undefined): string {
    if (sent === undefined || sent === shownUrl(existing.url))
      return existing.url_encrypted ? this.secretBox.open(existing.url_encrypted) : existing.url;
    if (sent?.includes(URL_MASK)) throw AppError.badRequest(maskedPartMessage);
    return sent ?? '';
  }

  /** A URL holding a credential is stored sealed, with its masked form in the url column. */
  private withSealedUrl(fields: WebhookFields): WebhookFields {
    const masked = maskUrl(fields.url);
    return masked ? { ...fields, url: masked, url_encrypted: this.secretBox.seal(fields.url) } : { ...fields, url_encrypted: null };
  }

  private validated(fields: WebhookFields): WebhookFields {
    const problem = webhookProblem(fields);
    if (problem) throw AppError.badRequest(problem);
    const url = parseUrl(fields.url);
    const type = fields.webhook_type;
    if (HTTP_TYPES.has(type) && url?.protocol !== 'http:' && url?.protocol !== 'https:')
      throw AppError.badRequest(`Invalid webhook URL "${fields.url}": a ${type} webhook needs an http:// or https:// URL`);
    if (type === 'email') {
      if (url?.protocol !== 'smtp:' && url?.protocol !== 'smtps:')
        throw AppError.badRequest(
          `Invalid webhook URL "${fields.url}": an email webhook needs the SMTP server as smtp://host:port or smtps://host:port`,
        );
      if (!fields.options.to || !fields.options.from) throw AppError.badRequest('An email webhook needs the options "from" and "to"');
    }
    if (type === 'telegram') {
      if (!fields.options.chat_id) throw AppError.badRequest('A telegram webhook needs the option "chat_id"');
      if (!fields.secret_encrypted) throw AppError.badRequest('A telegram webhook needs the bot token as its secret');
    }
    if (fields.trigger_type === 'scheduled') {
      const schedule = fields.schedule?.trim() || DEFAULT_WEBHOOK_SCHEDULE;
      parseSchedule(schedule, this.timeZone, this.now());
      return { ...fields, schedule, event_type: null };
    }
    return fields;
  }

  private toAnswer(row: WebhookRow): WebhookAnswer {
    const upcoming =
      row.trigger_type === 'scheduled' && row.schedule && row.enabled
        ? nextRuns(row.schedule, this.timeZone, this.now()).map((d) => d.toISOString())
        : [];
    return {
      id: row.id,
      name: row.name,
      url: shownUrl(row.url),
      webhook_type: row.webhook_type,
      trigger_type: row.trigger_type,
      event_type: row.event_type,
      schedule: row.schedule,
      method: row.method,
      enabled: row.enabled,
      options: row.options,
      filters: row.filters,
      has_secret: row.secret_encrypted !== null,
      next_runs: upcoming,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
