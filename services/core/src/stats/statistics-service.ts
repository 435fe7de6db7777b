import type { Database } from '../db/database.js';

/**
 * What every statistics, history and detail call needs besides its own input: the media server it reads
 * (the default one) and the time zone its buckets use (the request's `tz`, else the configured TZ).
 */
export interface ServerContext {
  serverId: string;
  isJellyfin: boolean;
}

export class StatisticsContext {
  constructor(
    private readonly db: Database,
    readonly defaultTimeZone: string,
  ) {}

  /** The default media server, or undefined when none is linked yet (callers answer empty results). */
  async server(): Promise<ServerContext | undefined> {
    const [row] = await this.db.query<{ id: string; kind: string }>(
      'SELECT id, kind FROM media_servers ORDER BY is_default DESC, created_at LIMIT 1',
    );
    return row ? { serverId: row.id, isJellyfin: row.kind !== 'emby' } : undefined;
  }

  timeZone(requested: string | undefined): string {
    return requested ?? this.defaultTimeZone;
  }
}
