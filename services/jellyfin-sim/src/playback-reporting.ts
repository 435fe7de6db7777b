/**
 * The Playback Reporting plugin's SQLite table, held in a real SQL engine (sql.js), and its custom-query
 * endpoint's odd answer shape: `colums` (sic), every cell a string, SQL errors reported as 200 + message.
 */
import initSqlJs from 'sql.js';
import type { Database, SqlValue } from 'sql.js';
import type { Flavor } from './library/generate.js';

export interface ActivityRow {
  dateCreated: string;
  userId: string;
  itemId: string;
  itemType: string;
  itemName: string;
  playbackMethod: string;
  clientName: string;
  deviceName: string;
  playDuration: number;
  pauseDuration?: number;
  remoteAddress?: string;
  transcodeReasons?: string;
}

export interface CustomQueryAnswer {
  colums: string[];
  results: string[][];
  message: string;
}

export class PlaybackReporting {
  enabled = true;

  private constructor(
    private readonly db: Database,
    readonly flavor: Flavor,
  ) {}

  static async create(flavor: Flavor): Promise<PlaybackReporting> {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    const embyExtra = flavor === 'emby' ? ', PauseDuration INT, RemoteAddress TEXT, TranscodeReasons TEXT' : '';
    db.run(
      `CREATE TABLE IF NOT EXISTS PlaybackActivity (DateCreated DATETIME NOT NULL, UserId TEXT, ItemId TEXT, ItemType TEXT, ItemName TEXT, PlaybackMethod TEXT, ClientName TEXT, DeviceName TEXT, PlayDuration INT${embyExtra})`,
    );
    db.run('CREATE TABLE IF NOT EXISTS UserList (UserId TEXT, LastUpdated INT)');
    return new PlaybackReporting(db, flavor);
  }

  insert(row: ActivityRow): number {
    const emby = this.flavor === 'emby';
    const cols =
      'DateCreated, UserId, ItemId, ItemType, ItemName, PlaybackMethod, ClientName, DeviceName, PlayDuration' +
      (emby ? ', PauseDuration, RemoteAddress, TranscodeReasons' : '');
    const values: SqlValue[] = [
      row.dateCreated,
      row.userId,
      row.itemId,
      row.itemType,
      row.itemName,
      row.playbackMethod,
      row.clientName,
      row.deviceName,
      row.playDuration,
    ];
    if (emby) values.push(row.pauseDuration ?? 0, row.remoteAddress ?? '', row.transcodeReasons ?? '');
    this.db.run(`INSERT INTO PlaybackActivity (${cols}) VALUES (${values.map(() => '?').join(', ')})`, values);
    const r = this.db.exec('SELECT last_insert_rowid()');
    return Number(r[0]?.values[0]?.[0] ?? 0);
  }

  updateDuration(rowid: number, playDuration: number, pauseDuration: number): void {
    if (this.flavor === 'emby')
      this.db.run('UPDATE PlaybackActivity SET PlayDuration = ?, PauseDuration = ? WHERE rowid = ?', [playDuration, pauseDuration, rowid]);
    else this.db.run('UPDATE PlaybackActivity SET PlayDuration = ? WHERE rowid = ?', [playDuration, rowid]);
  }

  rowCount(): number {
    return Number(this.db.exec('SELECT COUNT(*) FROM PlaybackActivity')[0]?.values[0]?.[0] ?? 0);
  }

  /** What `POST /user_usage_stats/submit_custom_query` answers. */
  customQuery(sql: string, replaceUserId: boolean, userNames: Map<string, string>): CustomQueryAnswer {
    try {
      const results = this.db.exec(sql);
      const first = results[0];
      if (!first) {
        return {
          colums: [],
          results: [],
          message: `Query executed, no data returned.</br>Number of rows effected : ${this.db.getRowsModified()}`,
        };
      }
      let columns = [...first.columns];
      const userCol = replaceUserId ? columns.indexOf('UserId') : -1;
      if (userCol >= 0) columns = columns.map((c, i) => (i === userCol ? 'UserName' : c));
      const rows = first.values.map((row) =>
        row.map((cell, i) => {
          const text = cellText(cell);
          return i === userCol ? (userNames.get(text) ?? text) : text;
        }),
      );
      return { colums: columns, results: rows, message: '' };
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      return { colums: [], results: [], message: `Error Running Query</br>${err.message}<pre>${err.name}: ${err.message}</pre>` };
    }
  }

  close(): void {
    this.db.close();
  }
}

function cellText(v: SqlValue): string {
  if (v === null) return '';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return String(v);
}
