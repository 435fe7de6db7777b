import type { Database } from '../db/database.js';
import { HistoryService } from '../history/history-service.js';
import { LibraryService } from '../library/library-service.js';
import { StatisticsContext } from '../stats/statistics-context.js';
import { StatisticsService } from '../stats/statistics-service.js';
import { YearReviewService } from '../stats/year-review.js';
import { ALL_TIME_HOURS } from '../stats/time-window.js';
import { REPOSITORY_SQL_CATALOG, repositoriesOn } from './sql-catalog-repositories.js';

/**
 * The reads and writes of the statistics, history and library services, each named by what it answers (the other
 * repositories' statements: sql-catalog-repositories.ts). The
 * SQL catalog (services/core/sql/) holds the final SQL text each one sends to PostgreSQL, so a change to a
 * statement shows in a diff: `npm run sql` rewrites the files, and sql-catalog.test.ts fails when they drift.
 */
interface Services {
  stats: StatisticsService;
  history: HistoryService;
  library: LibraryService;
  yearReview: YearReviewService;
}

const historyPage = { page: 1, size: 25, search: '', sort: 'ActivityDateInserted' as const, desc: true, filters: [] };
const days = { days: 30 };

export const SQL_CATALOG: Record<string, (services: Services) => Promise<unknown>> = {
  'stats/most-viewed-movies': ({ stats }) => stats.mostViewedByType({ ...days, type: 'Movie' }),
  'stats/most-viewed-series': ({ stats }) => stats.mostViewedByType({ ...days, type: 'Series' }),
  'stats/most-viewed-tracks': ({ stats }) => stats.mostViewedByType({ ...days, type: 'Audio' }),
  'stats/most-popular-movies': ({ stats }) => stats.mostPopularByType({ ...days, type: 'Movie' }),
  'stats/most-popular-series': ({ stats }) => stats.mostPopularByType({ ...days, type: 'Series' }),
  'stats/most-popular-tracks': ({ stats }) => stats.mostPopularByType({ ...days, type: 'Audio' }),
  'stats/most-viewed-libraries': ({ stats }) => stats.mostViewedLibraries(days),
  'stats/most-used-clients': ({ stats }) => stats.mostUsedClients(days),
  'stats/most-active-users': ({ stats }) => stats.mostActiveUsers(days),
  'stats/playback-methods': ({ stats }) => stats.playbackMethods(days),
  'stats/every-client': ({ stats }) => stats.everyClient(days),
  'stats/library-overview': ({ stats }) => stats.libraryOverview(),
  'stats/library-metadata': ({ stats }) => stats.libraryMetadata(),
  'stats/library-cards': ({ stats }) => stats.libraryCards(),
  'stats/all-user-activity': ({ stats }) => stats.allUserActivity(),
  'stats/user-last-played': ({ stats }) => stats.userLastPlayed('u1'),
  'stats/library-last-played': ({ stats }) => stats.libraryLastPlayed('films'),
  'stats/user-totals-last-hours': ({ stats }) => stats.userTotals('u1', 24),
  'stats/user-totals-all-time': ({ stats }) => stats.userTotals('u1', ALL_TIME_HOURS),
  'stats/library-totals-last-hours': ({ stats }) => stats.libraryTotals('films', 24),
  'stats/library-totals-all-time': ({ stats }) => stats.libraryTotals('films', ALL_TIME_HOURS),
  'stats/item-totals-last-hours': ({ stats }) => stats.itemTotals('m1', 24),
  'stats/item-totals-all-time': ({ stats }) => stats.itemTotals('m1', ALL_TIME_HOURS),
  'stats/user-genres': ({ stats }) => stats.userGenres('u1'),
  'stats/library-genres': ({ stats }) => stats.libraryGenres('films'),
  'stats/library-items': ({ stats }) => stats.libraryItems('films'),
  'stats/library-playback-methods': ({ stats }) => stats.libraryPlaybackMethods('films', 24),
  'stats/views-per-day': ({ stats }) => stats.views('day', { days: 20 }),
  'stats/views-per-weekday': ({ stats }) => stats.views('weekday', { days: 20 }),
  'stats/views-per-hour': ({ stats }) => stats.views('hour', { days: 20 }),
  // A year without plays: the same statements whatever today's date (the binge's title query runs only after a binge).
  'stats/year-in-review-server': ({ yearReview }) => yearReview.review({ year: 2000, timeZone: 'UTC' }),
  'stats/year-in-review-user': ({ yearReview }) => yearReview.review({ year: 2000, timeZone: 'UTC', userId: 'u1' }),
  'history/page': ({ history }) => history.page({ kind: 'all' }, historyPage),
  'history/user-page-searched-and-filtered': ({ history }) =>
    history.page(
      { kind: 'user', id: 'u1' },
      {
        ...historyPage,
        search: 'film',
        sort: 'UserName',
        desc: false,
        filters: [
          { field: 'PlayMethod', value: ['DirectPlay'] },
          { field: 'LibraryId', value: ['films'] },
          { field: 'ActivityDateInserted', min: '2026-01-01T00:00:00Z', max: '2026-12-31T00:00:00Z' },
        ],
      },
    ),
  'history/library-page': ({ history }) => history.page({ kind: 'library', id: 'films' }, historyPage),
  'history/item-page': ({ history }) => history.page({ kind: 'item', id: 'm1' }, historyPage),
  'library/libraries': ({ library }) => library.libraries(),
  'library/recently-added': ({ library }) => library.recentlyAdded({ group: false }),
  'library/recently-added-grouped': ({ library }) => library.recentlyAdded({ group: true, libraryId: 'films' }),
  'library/user-details': ({ library }) => library.user('u1'),
  'library/library-details': ({ library }) => library.library('films'),
  'library/item-details': ({ library }) => library.item('m1'),
  'library/seasons': ({ library }) => library.seasons('s1'),
  'library/episodes': ({ library }) => library.episodes('s1'),
  'library/timeline': ({ library }) => library.timeline('u1', ['films']),
  // Writes last: they remove what the reads above read.
  'history/delete-plays': ({ history }) => history.deletePlays([1]),
  'library/purge-item': ({ library }) => library.purgeItem('m1', true),
  'library/purge-library-items': ({ library }) => library.purgeLibraryItems('films', true),
  'library/purge-library': ({ library }) => library.purgeLibrary('films', true),
};

/** The statement that picks the media server to read: every call runs it first, so it has a file of its own. */
export const SERVER_LOOKUP = 'stats/media-server-to-read';

/**
 * Runs every catalog entry against `db` (a migrated database with one media server and some content) and
 * returns the SQL files: path (without .sql) → text; then the repositories' calls (REPOSITORY_SQL_CATALOG). A call that sends several statements gets one file each
 * (`name-1`, `name-2`, …), in the order they were sent. Errors (a 404 for a missing object) are expected.
 */
export async function collectSqlCatalog(db: Database, serverId: string): Promise<Map<string, string>> {
  let sent: string[] = [];
  // One statement at a time: a call that runs queries concurrently (Promise.all) would otherwise send them in
  // an order that depends on the database's timing, and number its files differently from run to run.
  let previous: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(sql: string, send: () => Promise<T>): Promise<T> => {
    const run = previous.then(() => {
      sent.push(sql);
      return send();
    });
    previous = run.catch(() => undefined);
    return run;
  };
  const recording: Database = {
    ...db,
    query: <Row extends object = Record<string, unknown>>(
      sql: string,
      bind?: Parameters<Database['query']>[1],
      transaction?: Parameters<Database['query']>[2],
    ) => inTurn(sql, () => db.query<Row>(sql, bind, transaction)),
    rows: <Row extends object = Record<string, unknown>>(sql: string, bind?: unknown[]) => inTurn(sql, () => db.rows<Row>(sql, bind)),
  };
  const files = new Map<string, string>();
  for (const [name, call] of Object.entries(SQL_CATALOG)) {
    // A fresh context for every call: nothing answered from the cache.
    const context = new StatisticsContext(recording, 'UTC');
    const services = {
      stats: new StatisticsService(recording, context),
      history: new HistoryService(recording, context),
      library: new LibraryService(recording, context),
      yearReview: new YearReviewService(recording, context),
    };
    sent = [];
    await call(services).catch(() => undefined);
    const [lookup, ...statements] = sent;
    if (lookup !== undefined) files.set(SERVER_LOOKUP, tidy(lookup));
    if (statements.length === 1) files.set(name, tidy(statements[0]!));
    else statements.forEach((sql, index) => files.set(`${name}-${index + 1}`, tidy(sql)));
  }
  for (const [name, call] of Object.entries(REPOSITORY_SQL_CATALOG)) {
    sent = [];
    await call(repositoriesOn(recording, serverId)).catch(() => undefined);
    if (sent.length === 1) files.set(name, tidy(sent[0]!));
    else sent.forEach((sql, index) => files.set(`${name}-${index + 1}`, tidy(sql)));
  }
  return files;
}

/** The statement as sent, without trailing spaces and runs of blank lines, ending in a semicolon. */
function tidy(sql: string): string {
  return `${sql
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line, index, lines) => line !== '' || (index > 0 && lines[index - 1] !== ''))
    .join('\n')
    .trim()};\n`;
}
