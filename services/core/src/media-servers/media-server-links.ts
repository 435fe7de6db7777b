import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import type { SecretBox } from '../security/secret-box.js';

export type MediaServerKind = 'jellyfin' | 'emby';

/** A linked media server, with its API key decrypted, as the code that talks to it needs it. */
export interface MediaServerLink {
  id: string;
  name: string;
  kind: MediaServerKind;
  url: string;
  apiKey: string;
  externalUrl: string | null;
  remoteServerId: string | null;
  version: string | null;
  isDefault: boolean;
  managedBy: 'ui' | 'environment' | 'kubernetes';
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

  async list(): Promise<MediaServerLink[]> {
    const rows = await this.db.query<LinkRow>('SELECT * FROM media_servers ORDER BY is_default DESC, created_at');
    return rows.map((row) => this.toLink(row));
  }

  async get(id: string): Promise<MediaServerLink | undefined> {
    const [row] = await this.db.query<LinkRow>('SELECT * FROM media_servers WHERE id = $1', [id]);
    return row ? this.toLink(row) : undefined;
  }

  async getDefault(): Promise<MediaServerLink | undefined> {
    const [row] = await this.db.query<LinkRow>('SELECT * FROM media_servers ORDER BY is_default DESC, created_at LIMIT 1');
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

  async setExternalUrl(id: string, externalUrl: string | null): Promise<void> {
    await this.db.query('UPDATE media_servers SET external_url = $2, updated_at = now() WHERE id = $1', [id, externalUrl]);
  }

  private toLink(row: LinkRow): MediaServerLink {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      url: row.url,
      apiKey: this.secrets.open(row.api_key_encrypted),
      externalUrl: row.external_url,
      remoteServerId: row.remote_server_id,
      version: row.version,
      isDefault: row.is_default,
      managedBy: row.managed_by,
    };
  }
}
