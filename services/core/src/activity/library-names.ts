import type { Database } from '../db/database.js';

/**
 * The names of one server's libraries, for the per-library play metrics: a library's name is what a Grafana
 * panel shows, and the number of libraries is small (a bounded label). Read from the synced libraries table
 * and read again when a play names a library not seen yet (a library added since).
 */
export class LibraryNames {
  private names = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly serverId: string,
  ) {}

  async nameOf(libraryId: string | null): Promise<string> {
    if (libraryId === null) return 'unknown';
    if (!this.names.has(libraryId)) {
      const rows = await this.db.query<{ id: string; name: string }>('SELECT id, name FROM libraries WHERE server_id = $1', [
        this.serverId,
      ]);
      this.names = new Map(rows.map((row) => [row.id, row.name]));
    }
    return this.names.get(libraryId) ?? 'unknown';
  }
}
