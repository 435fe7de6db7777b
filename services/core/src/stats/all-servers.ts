import type { HistoryQuery } from '@reelstat/contract';
import type { HistoryService } from '../history/history-service.js';
import { CARD_SIZE } from './card-queries.js';
import type { ChartKind } from './chart-queries.js';
import type { StatisticsContext } from './statistics-context.js';
import type { DaysWindow, StatisticsService } from './statistics-service.js';

type Card = { Plays: number; total_playback_duration: number };
type ViewCell = { count: number; duration: number };
type ViewsAnswer = { stats: Array<Record<string, string | ViewCell> & { Key: string }>; libraries: Array<{ Id: string; Name: string }> };

/** Highest first by the given keys, then by name, keeping CARD_SIZE. */
function top<T>(rows: T[], keys: Array<(row: T) => number>, name: (row: T) => string): T[] {
  return rows
    .sort((a, b) => {
      for (const key of keys) if (key(b) !== key(a)) return key(b) - key(a);
      return name(a).localeCompare(name(b));
    })
    .slice(0, CARD_SIZE);
}

/** Rows with the same name (a client, a play method) summed. */
function sumBy<T extends Record<string, unknown>>(rows: T[], name: keyof T, counters: Array<keyof T>): T[] {
  const merged = new Map<unknown, T>();
  for (const row of rows) {
    const existing = merged.get(row[name]);
    if (!existing) merged.set(row[name], { ...row });
    else for (const counter of counters) (existing[counter] as number) += row[counter] as number;
  }
  return [...merged.values()];
}

/**
 * "All servers": the overviews where summing every linked server makes sense (home cards, charts, the users
 * table, the history, the library cards), read per server with the same services and merged. Items, libraries and users belong to
 * one server each, so their top fives are the best of each server's top five; clients and play methods with the
 * same name are summed across servers over each server's whole list, then ranked (summing only each server's top
 * five would miss a client sixth on every server whose sum beats them; play methods are three, so every server's
 * answer is already whole).
 */
export class AllServersReads {
  constructor(
    private readonly context: StatisticsContext,
    private readonly statistics: StatisticsService,
    private readonly history: HistoryService,
  ) {}

  private async each<T>(read: (serverId: string) => Promise<T>): Promise<T[]> {
    const ids = await this.context.liveServerIds();
    return Promise.all(ids.map((id) => read(id)));
  }

  async mostViewedByType(input: DaysWindow & { type: 'Movie' | 'Series' | 'Audio' }) {
    const rows = (await this.each((id) => this.statistics.mostViewedByType(input, id))).flat();
    return top(rows, [(row) => row.Plays, (row) => row.total_playback_duration], (row) => row.Name);
  }

  async mostPopularByType(input: DaysWindow & { type: 'Movie' | 'Series' | 'Audio' }) {
    const rows = (await this.each((id) => this.statistics.mostPopularByType(input, id))).flat();
    return top(rows, [(row) => row.unique_viewers ?? 0, (row) => row.Plays, (row) => row.total_playback_duration], (row) => row.Name);
  }

  async mostViewedLibraries(input: DaysWindow) {
    const rows = (await this.each((id) => this.statistics.mostViewedLibraries(input, id))).flat();
    return top(rows, [(row) => row.Plays, (row) => row.total_playback_duration], (row) => row.Name);
  }

  async mostUsedClients(input: DaysWindow) {
    const rows = sumBy((await this.each((id) => this.statistics.everyClient(input, id))).flat(), 'Client', [
      'Plays',
      'total_playback_duration',
    ]);
    return top(rows, [(row: Card) => row.Plays, (row: Card) => row.total_playback_duration], (row) => row.Client);
  }

  async mostActiveUsers(input: DaysWindow) {
    const rows = (await this.each((id) => this.statistics.mostActiveUsers(input, id))).flat();
    return top(rows, [(row) => row.Plays, (row) => row.total_playback_duration], (row) => row.Name);
  }

  async playbackMethods(input: DaysWindow) {
    const rows = sumBy((await this.each((id) => this.statistics.playbackMethods(input, id))).flat(), 'Name', [
      'Count',
      'total_playback_duration',
    ]);
    return top(rows, [(row) => row.Count], (row) => row.Name);
  }

  async libraryOverview() {
    return (await this.each((id) => this.statistics.libraryOverview(id))).flat();
  }

  /** Every server's library cards, each with the Id of its server (libraries are per server). */
  async libraryCards() {
    return this.withServerIds((id) => this.statistics.libraryCards(id));
  }

  /** Every server's files and bytes per library, each row with the Id of its server. */
  async libraryMetadata() {
    return this.withServerIds((id) => this.statistics.libraryMetadata(id));
  }

  private async withServerIds<T extends object>(read: (serverId: string) => Promise<T[]>): Promise<Array<T & { ServerId: string }>> {
    const ids = await this.context.liveServerIds();
    const lists = await Promise.all(ids.map(async (id) => (await read(id)).map((row) => ({ ...row, ServerId: id }))));
    return lists.flat();
  }

  /** Every server's users, each row with the Id of its server (users are per server). */
  async allUserActivity() {
    return this.withServerIds((id) => this.statistics.allUserActivity(id));
  }

  /** Charts: buckets of the same key summed; libraries of the same name share a column. */
  async views(kind: ChartKind, input: DaysWindow): Promise<ViewsAnswer> {
    const answers = (await this.each((id) => this.statistics.views(kind, input, id))) as ViewsAnswer[];
    const libraries = new Map<string, { Id: string; Name: string }>();
    const rows = new Map<string, Record<string, string | ViewCell> & { Key: string }>();
    for (const answer of answers) {
      for (const library of answer.libraries) if (!libraries.has(library.Name)) libraries.set(library.Name, library);
      for (const row of answer.stats) {
        const merged = rows.get(row.Key) ?? { Key: row.Key };
        for (const [column, value] of Object.entries(row)) {
          if (column === 'Key' || typeof value === 'string') continue;
          const cell = (merged[column] as ViewCell | undefined) ?? { count: 0, duration: 0 };
          merged[column] = { count: cell.count + value.count, duration: cell.duration + value.duration };
        }
        rows.set(row.Key, merged);
      }
    }
    // Buckets keep the order of the first server's answer (days, weekdays Sunday first, hours).
    const order = answers.flatMap((answer) => answer.stats.map((row) => row.Key));
    const keys = [...new Set(order)];
    const names = [...libraries.keys()];
    return {
      stats: keys.map((key) => {
        const row = rows.get(key)!;
        for (const name of names) row[name] ??= { count: 0, duration: 0 };
        return row;
      }),
      libraries: [...libraries.values()],
    };
  }

  /** The history of every live server as one paged list. */
  async historyPage(query: HistoryQuery) {
    return this.history.page({ kind: 'all' }, query, await this.context.liveServerIds());
  }
}
