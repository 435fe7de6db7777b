import type { Database } from '../db/database.js';
import { AnswerCache, localDate } from './answer-cache.js';

/**
 * What every statistics, history and detail call needs besides its own input: the media server it reads
 * (the default one) and the time zone its buckets use (the request's `tz`, else the configured TZ).
 */
export interface ServerContext {
  serverId: string;
  isJellyfin: boolean;
  /** Changes with every recorded, extended or deleted play (see AnswerCache). */
  historyVersion: string;
}

export class StatisticsContext {
  constructor(
    private readonly db: Database,
    readonly defaultTimeZone: string,
  ) {}

  /** The default media server, or undefined when none is linked yet (callers answer empty results). */
  async server(): Promise<ServerContext | undefined> {
    const [row] = await this.db.query<{ id: string; kind: string; last_id: number | null; plays: number | null; seconds: string | null }>(
      `SELECT m.id, m.kind, (SELECT max(id) FROM playback_history) AS last_id,
         (SELECT sum(plays) FROM play_totals t WHERE t.server_id = m.id AND t.scope = 'user') AS plays,
         (SELECT sum(played_seconds) FROM play_totals t WHERE t.server_id = m.id AND t.scope = 'user') AS seconds
       FROM media_servers m ORDER BY m.is_default DESC, m.created_at LIMIT 1`,
    );
    return row
      ? { serverId: row.id, isJellyfin: row.kind !== 'emby', historyVersion: `${row.last_id ?? 0}:${row.plays ?? 0}:${row.seconds ?? 0}` }
      : undefined;
  }

  readonly answers = new AnswerCache();

  /** A day-window answer, computed once per (call, input, local date, history version). */
  cachedDayWindow<T>(server: ServerContext, call: string, tz: string, input: unknown, compute: () => Promise<T>): Promise<T> {
    const key = JSON.stringify([call, server.serverId, server.historyVersion, tz, localDate(tz), input]);
    return this.answers.get(key, compute);
  }

  /** An answer that depends on the history and the content, not on the clock. */
  cachedContent<T>(server: ServerContext, call: string, input: unknown, compute: () => Promise<T>): Promise<T> {
    return this.answers.get(JSON.stringify([call, server.serverId, server.historyVersion, input]), compute);
  }

  timeZone(requested: string | undefined): string {
    return requested ?? this.defaultTimeZone;
  }
}
