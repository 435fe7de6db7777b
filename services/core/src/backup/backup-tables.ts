/**
 * What a backup holds. Tables are listed parents first (the order they are written and restored in); each
 * belongs to a group an administrator can leave out of backups, except media_servers, the root every other
 * row hangs from. Left out on purpose: secrets (administrator accounts, API keys), live and derived state
 * (live_sessions, rollups and totals are rebuilt on restore), task logs and sync scratch tables.
 */
export interface BackupTable {
  name: string;
  /** The exclusion group (SPEC.md's "Backup table" value), or null when the table is always included. */
  group: BackupGroup | null;
  primaryKey: string[];
  /** Foreign keys checked before a restore changes anything: columns → parent table (same column names there). */
  parents: Array<{ table: string; columns: string[]; parentColumns: string[] }>;
}

export const BACKUP_GROUPS = [
  { value: 'app_settings', name: 'Settings' },
  { value: 'media_users', name: 'Users' },
  { value: 'libraries', name: 'Libraries' },
  { value: 'items', name: 'Items, files and genres' },
  { value: 'playback_history', name: 'Playback history' },
] as const;
export type BackupGroup = (typeof BACKUP_GROUPS)[number]['value'];

const toServer = { table: 'media_servers', columns: ['server_id'], parentColumns: ['id'] };

export const BACKUP_TABLES: readonly BackupTable[] = [
  { name: 'media_servers', group: null, primaryKey: ['id'], parents: [] },
  { name: 'app_settings', group: 'app_settings', primaryKey: ['key'], parents: [] },
  { name: 'media_users', group: 'media_users', primaryKey: ['server_id', 'id'], parents: [toServer] },
  { name: 'libraries', group: 'libraries', primaryKey: ['server_id', 'id'], parents: [toServer] },
  { name: 'items', group: 'items', primaryKey: ['server_id', 'id'], parents: [toServer] },
  {
    name: 'media_sources',
    group: 'items',
    primaryKey: ['server_id', 'item_id', 'id'],
    parents: [{ table: 'items', columns: ['server_id', 'item_id'], parentColumns: ['server_id', 'id'] }],
  },
  {
    name: 'media_streams',
    group: 'items',
    primaryKey: ['server_id', 'item_id', 'media_source_id', 'stream_index'],
    parents: [
      { table: 'media_sources', columns: ['server_id', 'item_id', 'media_source_id'], parentColumns: ['server_id', 'item_id', 'id'] },
    ],
  },
  {
    name: 'item_genres',
    group: 'items',
    primaryKey: ['server_id', 'item_id', 'genre'],
    parents: [{ table: 'items', columns: ['server_id', 'item_id'], parentColumns: ['server_id', 'id'] }],
  },
  { name: 'playback_history', group: 'playback_history', primaryKey: ['id'], parents: [toServer] },
];

export function backupTable(name: string): BackupTable | undefined {
  return BACKUP_TABLES.find((table) => table.name === name);
}

export function isBackupGroup(value: string): value is BackupGroup {
  return BACKUP_GROUPS.some((group) => group.value === value);
}

/** The tables a backup made with these groups excluded contains, in order. */
export function includedTables(excluded: readonly string[]): BackupTable[] {
  return BACKUP_TABLES.filter((table) => table.group === null || !excluded.includes(table.group));
}
