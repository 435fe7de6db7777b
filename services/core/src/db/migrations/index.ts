import type { MigrationContext } from '../migrate.js';
import { initialSchema } from './0001-initial-schema.js';
import { syncAndTasks } from './0002-sync-and-tasks.js';
import { activityMonitor } from './0003-activity-monitor.js';
import { statisticsSchema } from './0004-statistics.js';
import { timelineIndex } from './0005-timeline-index.js';
import { dailyRollups } from './0006-daily-rollups.js';
import { historyAtPlayEnd } from './0007-history-at-play-end.js';
import { apiKeyCreator } from './0008-api-key-creator.js';
import { deferredIndexes } from './0009-deferred-indexes.js';
import { webhooks } from './0010-webhooks.js';
import { managedMediaServers } from './0011-managed-media-servers.js';
import { webhookDeliveryWakeup } from './0012-webhook-delivery-wakeup.js';
import { libraryChartRollups } from './0013-library-chart-rollups.js';
import { signInAccounts } from './0014-sign-in-accounts.js';
import { cardRollups } from './0018-card-rollups.js';
import { walkAndHourChartLevels } from './0020-walk-and-hour-chart-levels.js';
import { dayChartPrefixesAndCardIndexes } from './0021-day-chart-prefixes-and-card-indexes.js';
import { streamDetailsDictionary } from './0022-stream-details-dictionary.js';
import { redundantHistoryIndexes } from './0023-redundant-history-indexes.js';
import { yearTopsAndDownloadTickets } from './0024-year-tops-and-download-tickets.js';
import { historySearchTerms } from './0025-history-search-terms.js';
import { storageSecondPass } from './0026-storage-second-pass.js';
import { libraryMethodMonths } from './0027-library-method-months.js';
import { yearReviewRollups } from './0028-year-review-rollups.js';
import { yearTops } from './0031-year-tops.js';
import { unusedSecondsIndex } from './0032-unused-seconds-index.js';
import { libraryCountsAndLastPlays } from './0035-library-counts-and-last-plays.js';
import { searchTermsSure } from './0036-search-terms-sure.js';
import { dayChartSlots } from './0037-day-chart-slots.js';
import { daySlotsDayTotals } from './0038-day-slots-day-totals.js';
import { libraryValueTotals } from './0039-library-value-totals.js';
import { userInItemIndexes } from './0040-user-in-item-indexes.js';
import { searchWords } from './0041-search-words.js';

export interface Migration {
  /** Sortable, never renamed once released: it is the key stored in schema_migrations. */
  name: string;
  up(context: MigrationContext): Promise<void>;
}

/** Every migration, in order. Append only. */
export const migrations: Migration[] = [
  initialSchema,
  syncAndTasks,
  activityMonitor,
  statisticsSchema,
  timelineIndex,
  dailyRollups,
  historyAtPlayEnd,
  apiKeyCreator,
  deferredIndexes,
  webhooks,
  managedMediaServers,
  webhookDeliveryWakeup,
  libraryChartRollups,
  signInAccounts,
  cardRollups,
  walkAndHourChartLevels,
  dayChartPrefixesAndCardIndexes,
  streamDetailsDictionary,
  redundantHistoryIndexes,
  yearTopsAndDownloadTickets,
  historySearchTerms,
  storageSecondPass,
  libraryMethodMonths,
  yearReviewRollups,
  yearTops,
  unusedSecondsIndex,
  libraryCountsAndLastPlays,
  searchTermsSure,
  dayChartSlots,
  daySlotsDayTotals,
  libraryValueTotals,
  userInItemIndexes,
  searchWords,
];
