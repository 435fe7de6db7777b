import { z } from 'zod';
import type { Database } from '../db/database.js';
import { ACTIVITY_RECORDING_LIMITS, activityIntervals, activityRecordingRules } from '@reelstat/contract';

/**
 * Runtime settings edited from the dashboard, stored in app_settings as JSON. Each key has a schema and a
 * default, so a missing or corrupt row reads as the default rather than breaking a page.
 * Features add their keys here.
 */
export const settingSchemas = {
  REQUIRE_LOGIN: z.boolean(),
  EXTERNAL_URL: z.string(),
  PREFERRED_ADMIN: z.object({ userid: z.string(), username: z.string() }).nullable(),
  /** Activity monitor polling intervals (ms), SPEC.md §5. */
  ACTIVITY_MONITOR_INTERVALS: activityIntervals,
  /** Activity monitor recording rules: minimum play length, resume-merge window. */
  ACTIVITY_RECORDING_RULES: activityRecordingRules,
  /** Task name → interval in minutes (SPEC.md §9 values); tasks without an entry use the default. */
  TASK_INTERVALS: z.record(z.string(), z.number().int().positive()),
  /** Task runs (and their logs) older than this many days are pruned. */
  TASK_LOG_RETENTION_DAYS: z.number().int().min(1).max(3650),
  /** Backup groups (backup-tables.ts) left out of backups. */
  BACKUP_EXCLUDED_TABLES: z.array(z.string()),
  /** How many backup files the BackupTask keeps (the newest). */
  BACKUP_RETENTION: z.number().int().min(1).max(1000),
  /** Whether viewers see the home page's server-wide cards (top items, libraries, clients, charts). */
  VIEWERS_SEE_SERVER_STATS: z.boolean(),
  /**
   * Sign-in with a media-server account: on by default once a server is linked; `onlyUsers` (media-server user
   * ids), when not empty, limits it to those users.
   */
  MEDIA_SERVER_SIGN_IN: z.object({ enabled: z.boolean(), onlyUsers: z.array(z.string().max(64)).max(1000) }),
} as const;

export type SettingKey = keyof typeof settingSchemas;
export type SettingValue<K extends SettingKey> = z.infer<(typeof settingSchemas)[K]>;

export const settingDefaults: { [K in SettingKey]: SettingValue<K> } = {
  REQUIRE_LOGIN: true,
  EXTERNAL_URL: '',
  PREFERRED_ADMIN: null,
  ACTIVITY_MONITOR_INTERVALS: { activeSessionsInterval: 1000, idleInterval: 5000 },
  ACTIVITY_RECORDING_RULES: {
    minimumPlaySeconds: ACTIVITY_RECORDING_LIMITS.minimumPlaySeconds.default,
    mergeWindowMinutes: ACTIVITY_RECORDING_LIMITS.mergeWindowMinutes.default,
  },
  TASK_INTERVALS: {},
  TASK_LOG_RETENTION_DAYS: 30,
  BACKUP_EXCLUDED_TABLES: [],
  BACKUP_RETENTION: 5,
  VIEWERS_SEE_SERVER_STATS: false,
  MEDIA_SERVER_SIGN_IN: { enabled: true, onlyUsers: [] },
};

/** How long another replica's change may take to be seen here. Changes made through this process are immediate. */
const CACHE_MS = 2000;

export class AppSettings {
  private cache: { values: Map<string, unknown>; loadedAt: number } | undefined;

  constructor(private readonly db: Database) {}

  async get<K extends SettingKey>(key: K): Promise<SettingValue<K>> {
    const values = await this.load();
    const parsed = settingSchemas[key].safeParse(values.get(key));
    return (parsed.success ? parsed.data : settingDefaults[key]) as SettingValue<K>;
  }

  async set<K extends SettingKey>(key: K, value: SettingValue<K>): Promise<void> {
    const checked = settingSchemas[key].parse(value);
    await this.db.query(
      `INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(checked)],
    );
    this.cache = undefined;
  }

  private async load(): Promise<Map<string, unknown>> {
    if (this.cache && Date.now() - this.cache.loadedAt < CACHE_MS) return this.cache.values;
    let rows: Array<{ key: string; value: unknown }>;
    try {
      rows = await this.db.query<{ key: string; value: unknown }>('SELECT key, value FROM app_settings');
    } catch (error) {
      // While the database is away, background loops keep working with the values they last saw.
      if (this.cache) return this.cache.values;
      throw error;
    }
    const values = new Map(rows.map((row) => [row.key, row.value]));
    this.cache = { values, loadedAt: Date.now() };
    return values;
  }
}
