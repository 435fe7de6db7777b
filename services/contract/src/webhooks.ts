import { z } from 'zod';

/** webhooks.id is a PostgreSQL integer (serial): a larger id cannot exist, and PostgreSQL would refuse to compare it. */
const INT4_MAX = 2_147_483_647;

/** SPEC.md §9 names discord and generic; the others are the notification services homelab users run. */
export const WEBHOOK_TYPES = ['discord', 'generic', 'ntfy', 'gotify', 'slack', 'telegram', 'email'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** SPEC.md §3's three events (the Webhooks tab's toggles), then task failures and media-server reachability. */
export const WEBHOOK_EVENTS = [
  'playback_started',
  'playback_ended',
  'media_recently_added',
  'task_failed',
  'media_server_unreachable',
  'media_server_back',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const TOGGLE_EVENTS = ['playback_started', 'playback_ended', 'media_recently_added'] as const;

export const TRIGGER_TYPES = ['scheduled', 'event'] as const;
/** SPEC.md §9: 09:00 on day 1 of each month (the monthly report). */
export const DEFAULT_WEBHOOK_SCHEDULE = '0 9 1 * *';
export const PLAY_METHODS = ['DirectPlay', 'DirectStream', 'Transcode'] as const;

/** SPEC.md §5 and §8 texts, shared by the server's 400 answers and the form. */
export const WEBHOOK_MESSAGES = {
  urlRequired: 'Webhook URL is required',
  eventRequired: 'Event type is required for an event based webhook',
  nameRequired: 'Webhook name is required',
} as const;

const idList = z.array(z.string().trim().min(1).max(100)).max(500);

export const webhookFilters = z
  .object({
    users: idList.optional(),
    libraries: idList.optional(),
    play_methods: z.array(z.enum(PLAY_METHODS)).max(3).optional(),
  })
  .strict();
export type WebhookFilters = z.infer<typeof webhookFilters>;

/** Per-type settings that are not secret. */
export const webhookOptions = z
  .object({
    /** telegram */
    chat_id: z.string().trim().min(1).max(100).optional(),
    /** email */
    to: z.string().trim().min(3).max(1000).optional(),
    from: z.string().trim().min(3).max(300).optional(),
    security: z.enum(['starttls', 'tls', 'none']).optional(),
    username: z.string().trim().max(300).optional(),
    /** email: false accepts a self-signed certificate (homelab mail servers). */
    tls_verify: z.boolean().optional(),
    /** ntfy (1-5), gotify (0-10) */
    priority: z.number().int().min(0).max(10).optional(),
  })
  .strict();
export type WebhookOptions = z.infer<typeof webhookOptions>;

/**
 * The Webhook entity as the form sends it (POST creates, PUT updates; fields left out keep their value on
 * PUT). `secret` is write-only: the generic type's signing secret, a Gotify app token, a Telegram bot token,
 * an ntfy access token or the SMTP password. An empty string removes it.
 */
export const webhookBody = z
  .object({
    id: z.number().int().positive().max(INT4_MAX, 'is not a webhook id').optional(),
    name: z.string().trim().max(100).nullish(),
    url: z.string().trim().max(2000).nullish(),
    webhook_type: z.enum(WEBHOOK_TYPES, { error: `must be one of ${WEBHOOK_TYPES.join(', ')}` }).optional(),
    trigger_type: z.enum(TRIGGER_TYPES, { error: 'must be scheduled or event' }).optional(),
    event_type: z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` }).nullish(),
    schedule: z.string().trim().max(200).nullish(),
    method: z.enum(['POST', 'PUT'], { error: 'must be POST or PUT' }).optional(),
    enabled: z.boolean().optional(),
    options: webhookOptions.optional(),
    filters: webhookFilters.optional(),
    secret: z.string().max(4096).optional(),
  })
  .strip();
export type WebhookBody = z.infer<typeof webhookBody>;

export const webhookAnswer = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  webhook_type: z.enum(WEBHOOK_TYPES),
  trigger_type: z.enum(TRIGGER_TYPES),
  event_type: z.enum(WEBHOOK_EVENTS).nullable(),
  schedule: z.string().nullable(),
  method: z.enum(['POST', 'PUT']),
  enabled: z.boolean(),
  options: webhookOptions,
  filters: webhookFilters,
  /** Whether a secret is stored; the secret itself is never returned. */
  has_secret: z.boolean(),
  /** Scheduled webhooks: the next three runs (ISO times). */
  next_runs: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswer>;
export const webhookListAnswer = z.array(webhookAnswer);
/** A created generic webhook without a secret of its own gets one, shown in this answer only. */
export const savedWebhookAnswer = webhookAnswer.extend({ generated_secret: z.string().optional() });

export const webhookIdParams = z.object({ id: z.coerce.number().int().positive().max(INT4_MAX, 'is not a webhook id') });
export const webhookDeliveryParams = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX, 'is not a webhook id'),
  deliveryId: z.coerce.number().int().positive(),
});

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'dead'] as const;
export const webhookDelivery = z.object({
  id: z.number(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  idempotency_key: z.string(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type WebhookDeliveryAnswer = z.infer<typeof webhookDelivery>;
export const deliveriesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});
export const deliveriesAnswer = z.object({
  results: z.array(webhookDelivery),
  pages: z.number(),
  current_page: z.number(),
  size: z.number(),
});

export const schedulePreviewBody = z.object({ schedule: z.string().trim().max(200) });
export const schedulePreviewAnswer = z.object({ next_runs: z.array(z.string()), time_zone: z.string() });

/**
 * SPEC.md §5, shared by the form and the server: the first problem's text, or null. The server also checks the
 * schedule's cron text, which the form previews through the API.
 */
export function webhookProblem(webhook: { name?: string | null; url?: string | null; trigger_type?: string; event_type?: string | null }) {
  if (!webhook.url?.trim()) return WEBHOOK_MESSAGES.urlRequired;
  if (webhook.trigger_type === 'event' && !webhook.event_type) return WEBHOOK_MESSAGES.eventRequired;
  if (!webhook.name?.trim()) return WEBHOOK_MESSAGES.nameRequired;
  return null;
}

/** Test and monthly report: the message for the toast and the queued delivery. */
export const queuedDeliveryAnswer = z.object({ message: z.string(), delivery_id: z.number() });
