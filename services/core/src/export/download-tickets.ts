import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { Principal } from '../auth/principal.js';

/**
 * Single-use, short-lived links for CSV downloads (docs/security.md, "Download tickets"). The dashboard's token
 * is a header, which a browser cannot send when it navigates; fetching the file instead held all of it in
 * memory until saved. So the dashboard asks for a ticket (an authenticated POST, with the export's access
 * checked as for the export itself), then navigates to GET /api/download?ticket=…: the file streams to disk.
 *
 * A ticket is 32 random bytes; only its SHA-256 is stored, with who asked, which export and its query. It is
 * used once (redeeming deletes it) and within TICKET_SECONDS. A URL holding it is dead once followed.
 */
export const TICKET_SECONDS = 60;

export type ExportKind = 'history' | 'users';

export interface DownloadTicket {
  principal: Principal;
  export: ExportKind;
  query: Record<string, unknown>;
  serverId: string | null;
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export class DownloadTickets {
  constructor(private readonly db: Database) {}

  async issue(ticket: DownloadTicket): Promise<{ ticket: string; expiresInSeconds: number }> {
    const secret = randomBytes(32).toString('base64url');
    // Expired tickets are removed as new ones are made: the table holds at most a minute of downloads.
    await this.db.query(`DELETE FROM download_tickets WHERE expires_at < now()`);
    await this.db.query(
      `INSERT INTO download_tickets (ticket_hash, principal, export, query, scope_server, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [hashOf(secret), JSON.stringify(ticket.principal), ticket.export, JSON.stringify(ticket.query), ticket.serverId, TICKET_SECONDS],
    );
    return { ticket: secret, expiresInSeconds: TICKET_SECONDS };
  }

  /** The ticket's download, once: undefined when it is unknown, already used or expired. */
  async redeem(secret: string): Promise<DownloadTicket | undefined> {
    const [row] = await this.db.query<{
      principal: Principal;
      export: ExportKind;
      query: Record<string, unknown>;
      scope_server: string | null;
      live: boolean;
    }>(
      `DELETE FROM download_tickets WHERE ticket_hash = $1
       RETURNING principal, export, query, scope_server, expires_at > now() AS live`,
      [hashOf(secret)],
    );
    if (!row?.live) return undefined;
    return { principal: row.principal, export: row.export, query: row.query, serverId: row.scope_server };
  }
}
