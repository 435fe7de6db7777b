import { searchUsers, sortUsers, type HistoryExportQuery, type UsersExportQuery } from '@reelstat/contract';
import type { Database } from '../db/database.js';
import type { HistoryScope } from '../history/history-query.js';
import { toHistoryFilters } from '../history/history-service.js';
import type { AllServersReads } from '../stats/all-servers.js';
import type { StatisticsContext } from '../stats/statistics-context.js';
import type { StatisticsService } from '../stats/statistics-service.js';
import { csvFileName } from './csv.js';
import { openHistoryExport } from './history-csv.js';
import { usersCsvLines } from './users-csv.js';

/** A CSV download: its file name and its lines, pulled by the response as the client reads. */
export interface CsvExport {
  fileName: string;
  lines: AsyncIterable<string> | Iterable<string>;
}

/** `all`: every linked server (the "All servers" choice); undefined: the default server. */
type ServerChoice = string | undefined;

/** The CSV exports of the history views and of the users table (the view in force, streamed). */
export class ExportService {
  constructor(
    private readonly db: Database,
    private readonly context: StatisticsContext,
    private readonly statistics: StatisticsService,
    private readonly allServers: AllServersReads,
  ) {}

  private async serverIds(serverId: ServerChoice, all: boolean): Promise<string[]> {
    if (all) return this.context.liveServerIds();
    const server = await this.context.server(serverId);
    return server ? [server.serverId] : [];
  }

  async history(query: HistoryExportQuery, serverId: ServerChoice, all = false): Promise<CsvExport> {
    const scope: HistoryScope = query.userId
      ? { kind: 'user', id: query.userId }
      : query.libraryId
        ? { kind: 'library', id: query.libraryId }
        : query.itemId
          ? { kind: 'item', id: query.itemId }
          : { kind: 'all' };
    const lines = await openHistoryExport(
      this.db,
      await this.serverIds(serverId, all),
      { scope, filters: toHistoryFilters(query.filters), search: query.search, sort: query.sort, desc: query.desc },
      { bom: query.bom },
    );
    const named = scope.kind === 'all' ? [] : [scope.kind, scope.id];
    return { fileName: csvFileName(['reelstat-history', ...named]), lines };
  }

  async users(query: UsersExportQuery, serverId: ServerChoice, all = false): Promise<CsvExport> {
    const rows = all ? await this.allServers.allUserActivity() : await this.statistics.allUserActivity(serverId);
    const shown = sortUsers(searchUsers(rows, query.search), query.sort, query.desc);
    return { fileName: csvFileName(['reelstat-users']), lines: usersCsvLines(shown, { bom: query.bom }) };
  }
}
