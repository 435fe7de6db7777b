import type { Database } from '../db/database.js';
import { AuthService } from '../auth/auth-service.js';
import { ApiKeyService } from '../auth/api-key-service.js';
import { InMemoryLoginRateLimiter } from '../auth/login-rate-limiter.js';
import { clientPasswordDigest } from '../auth/password-hash.js';
import { AppSettings } from '../settings/app-settings.js';
import { TaskRuns } from '../tasks/task-runs.js';
import { SyncRepository } from '../sync/sync-repository.js';
import type { ItemPageRows } from '../sync/item-rows.js';
import { recordPlays } from '../history/record-plays.js';
import { listUntrackedUsers, toggleUntrackedUser } from '../activity/untracked-users.js';
import { loadLivePlays, lockServerPlays, saveLivePlays } from '../activity/live-plays-repository.js';
import { testLogger } from './test-services.js';

/**
 * The statements of the repositories outside statistics, history and library: sync, accounts, API keys,
 * settings, task runs and the activity monitor's live state. Same rule as SQL_CATALOG: one name per call,
 * every statement it sends through Database.query gets a file (`name-1`, `name-2`, … when several). There is
 * no server lookup to strip: these calls are given their server id.
 */
export interface Repositories {
  db: Database;
  serverId: string;
  auth: AuthService;
  apiKeys: ApiKeyService;
  settings: AppSettings;
  taskRuns: TaskRuns;
  sync: SyncRepository;
}

export function repositoriesOn(db: Database, serverId: string): Repositories {
  const config = {
    jwtSecret: 'sql-catalog-secret-sql-catalog-secret',
    tokenTtlHours: 1,
    tokenRenewMaxHours: 168,
    loginLockoutMinutes: 15,
    loginMaxFailures: 5,
  };
  return {
    db,
    serverId,
    auth: new AuthService(db, config, new InMemoryLoginRateLimiter(60_000), testLogger),
    apiKeys: new ApiKeyService(db),
    settings: new AppSettings(db),
    taskRuns: new TaskRuns(db),
    sync: new SyncRepository(db),
  };
}

const RUN = '00000000-0000-4000-8000-000000000001';
const inTransaction = (db: Database, work: (transaction: Parameters<Database['query']>[2]) => Promise<unknown>) =>
  db.sequelize.transaction((transaction) => work(transaction).then(() => undefined));

export const REPOSITORY_SQL_CATALOG: Record<string, (repositories: Repositories) => Promise<unknown>> = {
  'auth/has-admin': ({ auth }) => auth.hasAdmin(),
  'auth/create-first-admin': ({ auth }) => auth.createFirstAdmin('admin', clientPasswordDigest('catalog-1')),
  'auth/login': ({ auth }) => auth.login('admin', clientPasswordDigest('catalog-1'), '127.0.0.1'),
  'auth/admin-username': ({ auth }) => auth.adminUsername(),
  'auth/update-credentials': ({ auth }) => auth.updateCredentials(1, { username: 'admin' }),
  'auth/sign-in-external': ({ auth, serverId }) =>
    auth.signInExternal({
      method: 'media-server',
      subject: `${serverId}:u1`,
      username: 'Alice',
      role: 'viewer',
      mediaUser: { serverId, userId: 'u1' },
    }),
  'auth/sign-in-account': ({ auth }) => auth.signInAccounts.find(1),
  'keys/create': ({ apiKeys }) => apiKeys.create('catalog'),
  'keys/list': ({ apiKeys }) => apiKeys.list(),
  'keys/verify': ({ apiKeys }) => apiKeys.verify('not-a-key'),
  'keys/delete': ({ apiKeys }) => apiKeys.delete({ id: 1 }),
  'settings/load': ({ settings }) => settings.get('REQUIRE_LOGIN'),
  'settings/save': ({ settings }) => settings.set('REQUIRE_LOGIN', true),
  'tasks/create-run': ({ taskRuns }) =>
    taskRuns.create({ id: RUN, name: 'FullSyncTask', type: 'JOB', executionType: 'Manual', instanceId: 'catalog' }),
  'tasks/heartbeat': ({ taskRuns }) => taskRuns.heartbeat(RUN, 50),
  'tasks/log-line': ({ taskRuns }) => taskRuns.log(RUN, 'catalog', 'white'),
  'tasks/live-runs': ({ taskRuns }) => taskRuns.liveRuns(['FullSyncTask']),
  'tasks/finish-run': ({ taskRuns }) => taskRuns.finish(RUN, 'Success', 'done'),
  'tasks/fail-stale-runs': ({ taskRuns }) => taskRuns.failStaleRuns(),
  'tasks/last-starts': ({ taskRuns }) => taskRuns.lastStarts(),
  'tasks/list-runs': ({ taskRuns }) => taskRuns.list(25),
  'tasks/prune-runs': ({ taskRuns }) => taskRuns.prune(30),
  'sync/upsert-users': ({ sync, serverId }) =>
    sync.upsertUsers(serverId, [
      { id: 'u1', name: 'Alice', is_administrator: false, primary_image_tag: null, last_activity_at: null, last_login_at: null },
    ]),
  'sync/upsert-libraries': ({ sync, serverId }) =>
    sync.upsertLibraries(serverId, [{ id: 'films', name: 'Films', collection_type: 'movies' }]),
  'sync/libraries': ({ sync, serverId }) => sync.libraries(serverId),
  'sync/set-library-tracked': ({ sync, serverId }) => sync.setLibraryTracked(serverId, 'films', true),
  'sync/live-item-count': ({ sync, serverId }) => sync.liveItemCount(serverId, 'films'),
  'sync/write-items': ({ sync, serverId }) =>
    sync.writeItems({
      items: [
        { server_id: serverId, id: 'm2', library_id: 'films', type: 'Movie', name: 'Film 2' } as unknown as ItemPageRows['items'][number],
      ],
      sources: [],
      streams: [],
      genres: [],
    }),
  'sync/existing-items': ({ sync, serverId }) => sync.existingItems(serverId, ['m1']),
  'sync/stage-seen': ({ sync, serverId }) => sync.stageSeen(RUN, serverId, 'films', [{ item_id: 'm1', etag: 'e1' }]),
  'sync/changed-seen-ids': ({ sync, serverId }) => sync.changedSeenIds(RUN, serverId, 'films'),
  'sync/seen-count': ({ sync }) => sync.seenCount(RUN, 'films'),
  'sync/archive-unseen': ({ sync, serverId }) => sync.archiveUnseen(RUN, serverId, ['films']),
  'sync/archive-items-of-archived-libraries': ({ sync, serverId }) => sync.archiveItemsOfArchivedLibraries(serverId),
  'sync/clear-stage': ({ sync }) => sync.clearStage(RUN),
  'sync/propagate-parent-names': ({ sync, serverId }) => sync.propagateParentNames(serverId, new Date(0)),
  'sync/refresh-library-counts': ({ sync, serverId }) => sync.refreshLibraryCounts(serverId),
  'sync/database-now': ({ sync }) => sync.databaseNow(),
  'sync/cursor': ({ sync, serverId }) => sync.cursor(serverId, 'items'),
  'sync/set-cursor': ({ sync, serverId }) => sync.setCursor(serverId, 'items', '2026-01-01T00:00:00Z'),
  'sync/newest-created': ({ sync, serverId }) => sync.newestCreated(serverId),
  'activity/record-plays': ({ db, serverId }) =>
    recordPlays(db, [
      {
        serverId,
        playKey: 'catalog-play',
        source: 'monitor',
        userId: 'u1',
        userName: 'Alice',
        itemId: 'm1',
        itemName: 'Film',
        itemType: 'Movie',
        libraryId: 'films',
        client: 'Jellyfin Web',
        playMethod: 'DirectPlay',
        startedAt: new Date('2026-01-01T20:00:00Z'),
        playedSeconds: 600,
      },
    ]),
  'activity/untracked-users': ({ db, serverId }) => listUntrackedUsers(db, serverId),
  'activity/toggle-untracked-user': ({ db, serverId }) => toggleUntrackedUser(db, serverId, 'u1'),
  'activity/load-live-plays': ({ db, serverId }) => loadLivePlays(db, serverId),
  'activity/lock-and-delete-live-plays': ({ db, serverId }) =>
    inTransaction(db, async (transaction) => {
      await lockServerPlays(db, serverId, transaction!);
      await saveLivePlays(db, serverId, [], ['ended-play'], transaction!);
    }),
};
