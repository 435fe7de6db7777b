import { DownloadTickets } from '../export/download-tickets.js';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/load-config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../bus/event-bus.js';
import { AuthService } from '../auth/auth-service.js';
import { MediaServerSignIn } from '../auth/media-server-sign-in.js';
import { OidcSignIn } from '../auth/oidc-sign-in.js';
import { ApiKeyService } from '../auth/api-key-service.js';
import { InMemoryLoginRateLimiter, RedisLoginRateLimiter, type LoginRateLimiter } from '../auth/login-rate-limiter.js';
import { AppSettings } from '../settings/app-settings.js';
import { MediaServerLinks } from '../media-servers/media-server-links.js';
import { SecretBox } from '../security/secret-box.js';
import { UpdateChecker } from '../updates/update-check.js';
import { TrackedLibraries } from '../sync/tracked-libraries.js';
import { StatisticsContext } from '../stats/statistics-context.js';
import { StatisticsService } from '../stats/statistics-service.js';
import { HistoryService } from '../history/history-service.js';
import { LibraryService } from '../library/library-service.js';
import { AllServersReads } from '../stats/all-servers.js';
import { BackupService } from '../backup/backup-service.js';
import { WebhookService } from '../webhooks/webhook-service.js';
import { ExportService } from '../export/export-service.js';
import { YearReviewService } from '../stats/year-review.js';

/** The domain services of one process, built once from its runtime. */
export interface Services {
  auth: AuthService;
  /** Sign-in with a Jellyfin or Emby account. */
  mediaServerSignIn: MediaServerSignIn;
  /** Sign-in with OpenID Connect, when configured (OIDC_*). */
  oidc: OidcSignIn | undefined;
  apiKeys: ApiKeyService;
  settings: AppSettings;
  mediaServers: MediaServerLinks;
  updates: UpdateChecker;
  trackedLibraries: TrackedLibraries;
  statistics: StatisticsService;
  history: HistoryService;
  library: LibraryService;
  /** "All servers": the overviews summed or listed over every linked server. */
  allServers: AllServersReads;
  backups: BackupService;
  /** CSV downloads of the history views and the users table. */
  exports: ExportService;
  /** Single-use links a browser follows to save an export to disk. */
  downloadTickets: DownloadTickets;
  /** A user's or the server's year in review (figures and the PNG card). */
  yearReview: YearReviewService;
  webhooks: WebhookService;
  /** Seals the secrets kept in the database (media-server keys, webhook tokens). */
  secretBox: SecretBox;
  close(): Promise<void>;
}

export function createServices(config: AppConfig, db: Database, logger: Logger, bus?: EventBus): Services {
  const windowMs = config.loginLockoutMinutes * 60_000;
  let redis: Redis | undefined;
  let limiter: LoginRateLimiter;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3 });
    redis.on('error', (error) => logger.warn({ err: error.message }, 'redis (rate limiter) error'));
    limiter = new RedisLoginRateLimiter(redis, config.redisKeyPrefix, windowMs);
  } else {
    limiter = new InMemoryLoginRateLimiter(windowMs);
  }
  // One read context per process: the statistics, history and library services share its answer cache.
  const reads = new StatisticsContext(db, config.timeZone);
  const settings = new AppSettings(db);
  const secretBox = new SecretBox(config.encryptionKey);
  const statistics = new StatisticsService(db, reads);
  const history = new HistoryService(db, reads, bus);
  const allServers = new AllServersReads(reads, statistics, history);
  const auth = new AuthService(db, config, limiter, logger.child({ component: 'auth' }));
  const mediaServers = new MediaServerLinks(db, secretBox);
  return {
    auth,
    mediaServerSignIn: new MediaServerSignIn(auth, mediaServers, settings, logger.child({ component: 'auth' })),
    oidc: config.oidc ? new OidcSignIn(config.oidc, auth, db, config.jwtSecret, logger.child({ component: 'oidc' })) : undefined,
    apiKeys: new ApiKeyService(db),
    settings,
    mediaServers,
    updates: new UpdateChecker(config.updateCheckUrl),
    trackedLibraries: new TrackedLibraries(db, logger.child({ component: 'sync' })),
    statistics,
    history,
    allServers,
    exports: new ExportService(db, reads, statistics, allServers),
    downloadTickets: new DownloadTickets(db),
    yearReview: new YearReviewService(db, reads),
    library: new LibraryService(db, reads, bus),
    backups: new BackupService(config, db, settings),
    webhooks: new WebhookService(db, secretBox, config.timeZone),
    secretBox,
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
