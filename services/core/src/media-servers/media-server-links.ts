import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { SecretBox } from '../security/secret-box.js';

export type MediaServerKind = 'jellyfin' | 'emby';

/** A linked media server, with its API key decrypted, as the code that talks to it needs it. */
export interface MediaServerLink {
  id: string;
  name: string;
  kind: MediaServerKind;
  url: string;
  /** Empty when the stored key cannot be decrypted (apiKeyError says why); usableApiKey() checks. */
  apiKey: string;
  /**
   * Why the stored API key cannot be read (ENCRYPTION_KEY changed, or a damaged value), else null. Such a link is
   * still listed and shown, so that the key can be entered again; nothing talks to its server until then.
   */
  apiKeyError: string | null;
  externalUrl: string | null;
  remoteServerId: string | null;
  version: string | null;
  isDefault: boolean;
  managedBy: 'ui' | 'environment' | 'kubernetes';
  /** For a Kubernetes-managed link: "namespace/name" of its MediaStatsServer. */
  managedRef: string | null;
  /** Suspended links are neither monitored nor synced. */
  suspended: boolean;
  /** Settings declared with the link (MediaStatsServer spec: libraries, intervals), as given. */
  settings: Record<string, unknown>;
  /** Removed: not monitored, synced nor listed; its history stays readable by id. */
  archived?: boolean;
}

/** What a user reads when a link's stored key cannot be decrypted, and what to do about it. */
function unreadableKeyMessage(name: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `The stored API key of media server ${name} cannot be read (${reason}); enter its API key again in Settings`;
}

/** The link's API key, or a clear conflict error when the stored key cannot be decrypted. */
export function usableApiKey(link: MediaServerLink): string {
  if (link.apiKeyError !== null) throw AppError.conflict(link.apiKeyError);
  return link.apiKey;
}

interface LinkRow {
  id: string;
  name: string;
  kind: MediaServerKind;
  url: string;
  api_key_encrypted: string;
  external_url: string | null;
  remote_server_id: string | null;
  version: string | null;
  is_default: boolean;
  managed_by: MediaServerLink['managedBy'];
  managed_ref: string | null;
  suspended: boolean;
  settings: Record<string, unknown>;
  archived_at: Date | null;
}

export interface LinkInput {
  name: string;
  kind: MediaServerKind;
  url: string;
  apiKey: string;
  remoteServerId?: string | undefined;
  version?: string | undefined;
  managedBy?: MediaServerLink['managedBy'];
}

/**
 * The media-server links (media_servers). API keys are sealed with the SecretBox before they reach the
 * database. The dashboard's calls act on the default server unless a server is named.
 */
export class MediaServerLinks {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  /** Linked servers in use (archived ones are left out; their history stays). */
  async list(): Promise<MediaServerLink[]> {
    const rows = await this.db.query<LinkRow>('SELECT * FROM media_servers WHERE archived_at IS NULL ORDER BY is_default DESC, created_at');
    return rows.map((row) => this.toLink(row));
  }

  async get(id: string): Promise<MediaServerLink | undefined> {
    const [row] = await this.db.query<LinkRow>('SELECT * FROM media_servers WHERE id = $1', [id]);
    return row ? this.toLink(row) : undefined;
  }

  /** Whether a server has this id, archived ones included (their history can still be read). */
  async exists(id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>('SELECT id FROM media_servers WHERE id = $1', [id]);
    return rows.length > 0;
  }

  /**
   * The live server that has this item or user ("All servers" lists mix servers; an image is fetched from the
   * server its item or user belongs to). The default server first when several have the id.
   */
  async holderOf(kind: 'item' | 'user', id: string): Promise<MediaServerLink | undefined> {
    const table = kind === 'item' ? 'items' : 'media_users';
    const [row] = await this.db.query<LinkRow>(
      `SELECT m.* FROM media_servers m WHERE m.archived_at IS NULL AND EXISTS (SELECT 1 FROM ${table} t WHERE t.server_id = m.id AND t.id = $1)
       ORDER BY m.is_default DESC, m.created_at LIMIT 1`,
      [id],
    );
    return row ? this.toLink(row) : undefined;
  }

  /** Adds another server from the Settings screen; the first live server becomes the default. */
  async add(input: LinkInput): Promise<MediaServerLink> {
    return this.db.sequelize.transaction(async (transaction) => {
      const [hasDefault] = await this.db.query<{ id: string }>(
        'SELECT id FROM media_servers WHERE is_default AND archived_at IS NULL',
        [],
        transaction,
      );
      const [row] = await this.db.query<LinkRow>(
        `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, remote_server_id, version, is_default, managed_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          randomUUID(),
          input.name,
          input.kind,
          input.url,
          this.secrets.seal(input.apiKey),
          input.remoteServerId ?? null,
          input.version ?? null,
          !hasDefault,
          input.managedBy ?? 'ui',
        ],
        transaction,
      );
      return this.toLink(row!);
    });
  }

  /** Changes a server's name, address or key (history keeps referring to its id). */
  async update(id: string, input: Partial<LinkInput>): Promise<MediaServerLink | undefined> {
    const [row] = await this.db.query<LinkRow>(
      `UPDATE media_servers SET name = COALESCE($2, name), kind = COALESCE($3, kind), url = COALESCE($4, url),
         api_key_encrypted = COALESCE($5, api_key_encrypted), remote_server_id = COALESCE($6, remote_server_id),
         version = COALESCE($7, version), updated_at = now()
       WHERE id = $1 AND archived_at IS NULL RETURNING *`,
      [
        id,
        input.name ?? null,
        input.kind ?? null,
        input.url ?? null,
        input.apiKey === undefined ? null : this.secrets.seal(input.apiKey),
        input.remoteServerId ?? null,
        input.version ?? null,
      ],
    );
    return row ? this.toLink(row) : undefined;
  }

  /** Makes a live server the default one (what calls without serverId act on). */
  async setDefault(id: string): Promise<void> {
    await this.db.sequelize.transaction(async (transaction) => {
      await this.db.query('UPDATE media_servers SET is_default = false WHERE is_default AND id <> $1', [id], transaction);
      await this.db.query('UPDATE media_servers SET is_default = true WHERE id = $1 AND archived_at IS NULL', [id], transaction);
    });
  }

  async getDefault(): Promise<MediaServerLink | undefined> {
    const [row] = await this.db.query<LinkRow>(
      'SELECT * FROM media_servers WHERE archived_at IS NULL ORDER BY is_default DESC, created_at LIMIT 1',
    );
    return row ? this.toLink(row) : undefined;
  }

  /** Sets the default server's link, creating it when there is none yet. Keeps its id (history refers to it). */
  async saveDefault(input: LinkInput): Promise<MediaServerLink> {
    const existing = await this.getDefault();
    const sealed = this.secrets.seal(input.apiKey);
    if (existing) {
      const [row] = await this.db.query<LinkRow>(
        `UPDATE media_servers SET name = $2, kind = $3, url = $4, api_key_encrypted = $5, remote_server_id = COALESCE($6, remote_server_id),
           version = COALESCE($7, version), managed_by = $8, updated_at = now() WHERE id = $1 RETURNING *`,
        [
          existing.id,
          input.name,
          input.kind,
          input.url,
          sealed,
          input.remoteServerId ?? null,
          input.version ?? null,
          input.managedBy ?? existing.managedBy,
        ],
      );
      return this.toLink(row!);
    }
    const [row] = await this.db.query<LinkRow>(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, remote_server_id, version, is_default, managed_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8) RETURNING *`,
      [
        randomUUID(),
        input.name,
        input.kind,
        input.url,
        sealed,
        input.remoteServerId ?? null,
        input.version ?? null,
        input.managedBy ?? 'ui',
      ],
    );
    return this.toLink(row!);
  }

  /** The live link declared by a Kubernetes resource ("namespace/name"), if any. */
  async getManaged(ref: string): Promise<MediaServerLink | undefined> {
    const [row] = await this.db.query<LinkRow>('SELECT * FROM media_servers WHERE managed_ref = $1 AND archived_at IS NULL', [ref]);
    return row ? this.toLink(row) : undefined;
  }

  /**
   * Creates or updates the link a Kubernetes resource declares. The first live server becomes the default; a
   * managed link adopts an unmanaged default pointing at the same media server (same remote id) instead of
   * duplicating it, so its history continues.
   */
  async saveManaged(
    ref: string,
    input: LinkInput & { externalUrl: string | null; suspended: boolean; settings: Record<string, unknown> },
  ): Promise<MediaServerLink> {
    return this.db.sequelize.transaction(async (transaction) => {
      const sealed = this.secrets.seal(input.apiKey);
      const [existing] = await this.db.query<{ id: string }>(
        `SELECT id FROM media_servers WHERE archived_at IS NULL AND (managed_ref = $1 OR (managed_ref IS NULL AND remote_server_id = $2))
         ORDER BY managed_ref IS NULL LIMIT 1`,
        [ref, input.remoteServerId ?? null],
        transaction,
      );
      const [hasDefault] = await this.db.query<{ id: string }>(
        'SELECT id FROM media_servers WHERE is_default AND archived_at IS NULL',
        [],
        transaction,
      );
      const values = [
        input.name,
        input.kind,
        input.url,
        sealed,
        input.remoteServerId ?? null,
        input.version ?? null,
        ref,
        input.externalUrl,
        input.suspended,
        JSON.stringify(input.settings),
      ];
      if (existing) {
        const [row] = await this.db.query<LinkRow>(
          `UPDATE media_servers SET name = $2, kind = $3, url = $4, api_key_encrypted = $5, remote_server_id = COALESCE($6, remote_server_id),
             version = COALESCE($7, version), managed_by = 'kubernetes', managed_ref = $8, external_url = $9, suspended = $10, settings = $11,
             updated_at = now() WHERE id = $1 RETURNING *`,
          [existing.id, ...values],
          transaction,
        );
        return this.toLink(row!);
      }
      const [row] = await this.db.query<LinkRow>(
        `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, remote_server_id, version, managed_by, managed_ref, external_url,
           suspended, settings, is_default)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'kubernetes', $8, $9, $10, $11, $12) RETURNING *`,
        [randomUUID(), ...values, !hasDefault],
        transaction,
      );
      return this.toLink(row!);
    });
  }

  /** Suspends or resumes a link (monitoring and sync stop while suspended). */
  async setSuspended(id: string, suspended: boolean): Promise<void> {
    await this.db.query('UPDATE media_servers SET suspended = $2, updated_at = now() WHERE id = $1', [id, suspended]);
  }

  /**
   * Takes a link out of use: no monitoring, no sync, not listed; its history and library rows stay. If it was
   * the default, the oldest remaining live link becomes the default.
   */
  async archive(id: string): Promise<void> {
    await this.db.sequelize.transaction(async (transaction) => {
      await this.db.query(
        'UPDATE media_servers SET archived_at = now(), is_default = false, updated_at = now() WHERE id = $1 AND archived_at IS NULL',
        [id],
        transaction,
      );
      await this.db.query(
        `UPDATE media_servers SET is_default = true WHERE id = (SELECT id FROM media_servers WHERE archived_at IS NULL ORDER BY created_at LIMIT 1)
           AND NOT EXISTS (SELECT 1 FROM media_servers WHERE is_default AND archived_at IS NULL)`,
        [],
        transaction,
      );
    });
  }

  /** What the operator reports in a MediaStatsServer's status: plays in progress and when a sync last recorded progress. */
  async activity(id: string): Promise<{ activeSessions: number; lastSyncAt: Date | null }> {
    const [row] = await this.db.query<{ active: number; last_sync: Date | null }>(
      `SELECT (SELECT count(*)::int FROM live_sessions WHERE server_id = $1) AS active,
              (SELECT max(updated_at) FROM sync_cursors WHERE server_id = $1 AND name NOT LIKE 'task_started_at:%') AS last_sync`,
      [id],
    );
    return { activeSessions: row?.active ?? 0, lastSyncAt: row?.last_sync ?? null };
  }

  async setExternalUrl(id: string, externalUrl: string | null): Promise<void> {
    await this.db.query('UPDATE media_servers SET external_url = $2, updated_at = now() WHERE id = $1', [id, externalUrl]);
  }

  private toLink(row: LinkRow): MediaServerLink {
    // One unreadable key must not make every link unreadable (the dashboard's configuration, the other servers'
    // monitors): the link is returned without its key, saying why.
    let apiKey = '';
    let apiKeyError: string | null = null;
    try {
      apiKey = this.secrets.open(row.api_key_encrypted);
    } catch (error) {
      apiKeyError = unreadableKeyMessage(row.name, error);
    }
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      url: row.url,
      apiKey,
      apiKeyError,
      externalUrl: row.external_url,
      remoteServerId: row.remote_server_id,
      version: row.version,
      isDefault: row.is_default,
      managedBy: row.managed_by,
      managedRef: row.managed_ref,
      suspended: row.suspended,
      settings: row.settings,
      archived: row.archived_at !== null,
    };
  }
}
