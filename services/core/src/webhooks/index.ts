/** Webhooks and notifications: the entity, the outbox, formatters per type, senders and the dispatcher. */
export { WebhookService } from './webhook-service.js';
export {
  enqueueWebhookEvents,
  enqueueForWebhook,
  type WebhookEvent,
  type WebhookServer,
  type PlaybackData,
  type RecentlyAddedData,
  type AddedItem,
  type AddedSeries,
  type MonthlyReportData,
} from './webhook-events.js';
export { DeliveryDispatcher, type DeliverySettings, type DeliveryDispatcherDeps } from './delivery-dispatcher.js';
export { WebhookMetrics } from './webhook-metrics.js';
export { countDeadDeliveries } from './delivery-repository.js';
export { formatters, signBody, SIGNATURE_HEADER, TIMESTAMP_HEADER, type OutgoingMessage, type FormatContext } from './formatters/index.js';
export { HttpNotifier, parseRetryAfter } from './http-notifier.js';
export { SmtpNotifier } from './smtp-notifier.js';
export type { Notifier, SendResult, SendOptions } from './notifier.js';
export { retryDelay } from './retry-policy.js';
export { runScheduledWebhooks, pruneDeliveries } from './scheduled-webhooks.js';
export { startWebhookSchedule } from './webhook-schedule-loop.js';
export { nextRuns } from './cron-schedule.js';
export { isLinkLocal } from './target-address.js';
