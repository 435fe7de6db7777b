import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';

export interface ApiKeyListing {
  id: number;
  name: string;
  /** Masked: only the first characters, enough to recognise a key. */
  key: string;
  created_at: string;
  last_used_at: string | null;
  /** Username of the administrator who created it ("anonymous" with require-login off); null for older keys. */
  created_by: string | null;
}

const PREFIX = 'rs_';

function digest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * API keys for scripts and integrations, sent in the `x-api-token` header. Only a SHA-256 of each key is
 * stored (keys are 256-bit random, so a fast hash is enough); the full key is shown once, at creation.
 */
export class ApiKeyService {
  constructor(private readonly db: Database) {}

  async create(name: string, createdBy: string | null = null): Promise<{ name: string; key: string }> {
    const key = `${PREFIX}${randomBytes(32).toString('base64url')}`;
    await this.db.query('INSERT INTO api_keys (name, key_hash, key_preview, created_by) VALUES ($1, $2, $3, $4)', [
      name,
      digest(key),
      `${key.slice(0, 8)}…`,
      createdBy,
    ]);
    return { name, key };
  }

  async list(): Promise<ApiKeyListing[]> {
    const rows = await this.db.query<{
      id: number;
      name: string;
      key_preview: string;
      created_at: Date;
      last_used_at: Date | null;
      created_by: string | null;
    }>('SELECT id, name, key_preview, created_at, last_used_at, created_by FROM api_keys ORDER BY created_at, id');
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      key: row.key_preview,
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
      created_by: row.created_by,
    }));
  }

  /** Deletes by the full key (SPEC.md's DELETE /api/keys {key}) or by the id of the masked listing. */
  async delete(ref: { key?: string | undefined; id?: number | undefined }): Promise<void> {
    const rows = ref.key
      ? await this.db.query('DELETE FROM api_keys WHERE key_hash = $1 RETURNING id', [digest(ref.key)])
      : await this.db.query('DELETE FROM api_keys WHERE id = $1 RETURNING id', [ref.id]);
    if (rows.length === 0) throw AppError.notFound('API key not found');
  }

  /** True when the key exists; records when it was last used (at most once a minute, to spare writes). */
  async verify(key: string): Promise<{ id: number; name: string } | undefined> {
    if (!key.startsWith(PREFIX) || key.length > 100) return undefined;
    const [row] = await this.db.query<{ id: number; name: string }>(
      `UPDATE api_keys SET last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < now() - interval '1 minute' THEN now() ELSE last_used_at END
       WHERE key_hash = $1 RETURNING id, name`,
      [digest(key)],
    );
    return row;
  }
}
