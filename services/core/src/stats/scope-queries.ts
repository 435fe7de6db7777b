import type { Database } from '../db/database.js';
import { ALL_TIME_BUCKET } from '../history/rollup-sql.js';
import { cardWindowSql } from './card-windows.js';
import { ALL_TIME_HOURS, hoursWindowStart, timePartsSince } from './time-window.js';
import { windowedRollup } from './window-sql.js';

/** Figures for one user, library or item over a window of hours (SPEC.md §7 getGlobal*Stats). */
export type Scope = 'user' | 'library' | 'item';

const START = hoursWindowStart('$2');

/**
 * An item's plays include its episodes' when it is a series or a season: three index lookups (item, series,
 * season) added up, rather than one OR that the planner would answer by walking the whole window.
 */
const ITEM_PARTS = [
  'item_id = $3',
  'series_id = $3 AND item_id <> $3',
  'season_id = $3 AND item_id <> $3 AND series_id IS DISTINCT FROM $3',
];

/** Keeps an answer that only depends on its key (see StatisticsContext.cachedContent); by default, none is kept. */
export type Memo = <T>(key: string, compute: () => Promise<T>) => Promise<T>;
const noMemo: Memo = (_key, compute) => compute();

/**
 * A library over the last hours: whole UTC months and days from the cards' library rollups (play_card_rollups,
 * migration 0018), the whole quarter hours before the first whole day from play_rollups_by_library (kept per
 * first whole quarter hour, so repeated calls within 15 minutes add nothing but the edge), plus the plays between
 * the window start and the first whole quarter hour read from the history. A year is about 12 month rows and
 * up to 31 day rows, not every quarter hour × client × method of the year. The unnamed library ('') is not a
 * card key: it reads the quarter hours.
 */
async function libraryWindow(db: Database, serverId: string, libraryId: string, hours: number, memo: Memo) {
  const start = new Date(Date.now() - hours * 3_600_000);
  const whole = new Date(Math.ceil(start.getTime() / 900_000) * 900_000);
  const days = libraryId === '' ? whole : new Date(Math.ceil(whole.getTime() / 86_400_000) * 86_400_000);
  const months = new Date(Date.UTC(days.getUTCFullYear(), days.getUTCMonth() + (days.getUTCDate() === 1 ? 0 : 1), 1));
  const [rollups, edge] = await Promise.all([
    memo(`library-rollups:${libraryId}:${whole.toISOString()}`, async () => {
      const [sum] = await db.query<{ plays: number; played_seconds: number }>(
        `SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM (
           SELECT plays, played_seconds FROM play_card_rollups
             WHERE server_id = $1 AND kind = 'library' AND span = 'month' AND key = $2 AND bucket >= $5
           UNION ALL
           SELECT plays, played_seconds FROM play_card_rollups
             WHERE server_id = $1 AND kind = 'library' AND span = 'day' AND key = $2 AND bucket >= $4 AND bucket < $5
           UNION ALL
           SELECT plays, played_seconds FROM play_rollups_by_library
             WHERE server_id = $1 AND library_id = $2 AND bucket >= $3 AND bucket < $4
           UNION ALL
           SELECT plays, played_seconds FROM play_rollups_by_library WHERE server_id = $1 AND library_id = '' AND $2 = '' AND bucket >= $3
         ) AS parts`,
        [serverId, libraryId, whole.toISOString(), days.toISOString(), months.toISOString()],
      );
      return sum ?? { plays: 0, played_seconds: 0 };
    }),
    db.query<{ plays: number; played_seconds: number }>(
      `SELECT count(*)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM playback_history
       WHERE server_id = $1 AND library_id = $2 AND started_at >= $3 AND started_at < $4`,
      [serverId, libraryId, start.toISOString(), whole.toISOString()],
    ),
  ]);
  return { plays: rollups.plays + (edge[0]?.plays ?? 0), played_seconds: rollups.played_seconds + (edge[0]?.played_seconds ?? 0) };
}

/**
 * A series over the last hours from the Series card rollups (play_card_rollups, 0018: whole UTC months and days,
 * and the history before the first UTC midnight), not from every play of the series in the window.
 *
 * The item's figures (ITEM_PARTS) are its own plays (A), those whose series is the item (B) and those whose season
 * is the item (C). The Series card counts the episodes (item_type 'Episode') whose series is the item (S), so
 * B = S - D + O, with D the item's own plays that are episodes of itself (counted in A) and O the plays whose
 * series is the item that are not episodes. O is not kept anywhere, but all-time figures are: play_totals holds
 * A + B + C ever, so O ever = totals - A ever - C ever - S ever + D ever, in plays. When that is 0 there is no such
 * play at all, in any window, and the window's figures are A + C + S - D, all of it read in one statement (one
 * snapshot). A and C are index ranges of the item's own and season plays (none for a series). Undefined when O is
 * not 0: the caller then reads the history.
 */
export async function seriesWindow(db: Database, serverId: string, id: string, hours: number) {
  const inWindow = `started_at >= ${START}`;
  const [row] = await db.query<{ plays: number; played_seconds: string; exact: boolean }>(
    `WITH own AS (
       SELECT count(*) FILTER (WHERE ${inWindow}) AS plays, COALESCE(sum(played_seconds) FILTER (WHERE ${inWindow}), 0) AS seconds,
         count(*) AS plays_ever,
         count(*) FILTER (WHERE ${inWindow} AND item_type = 'Episode' AND series_id = $3) AS twice,
         COALESCE(sum(played_seconds) FILTER (WHERE ${inWindow} AND item_type = 'Episode' AND series_id = $3), 0) AS twice_seconds,
         count(*) FILTER (WHERE item_type = 'Episode' AND series_id = $3) AS twice_ever
       FROM playback_history WHERE server_id = $1 AND item_id = $3
     ), season AS (
       SELECT count(*) FILTER (WHERE ${inWindow}) AS plays, COALESCE(sum(played_seconds) FILTER (WHERE ${inWindow}), 0) AS seconds,
         count(*) AS plays_ever
       FROM playback_history WHERE server_id = $1 AND ${ITEM_PARTS[2]}
     ), series AS (${cardWindowSql('Series', 'ARRAY[$3]::text[]', START)})
     SELECT (own.plays + season.plays + COALESCE((SELECT plays FROM series), 0) - own.twice)::int AS plays,
       (own.seconds + season.seconds + COALESCE((SELECT played_seconds FROM series), 0) - own.twice_seconds)::bigint AS played_seconds,
       COALESCE((SELECT plays FROM play_totals WHERE server_id = $1 AND scope = 'item' AND key = $3), 0)
         = own.plays_ever + season.plays_ever - own.twice_ever + COALESCE((
           SELECT plays FROM play_card_rollups
           WHERE server_id = $1 AND kind = 'Series' AND span = 'all' AND bucket = ${ALL_TIME_BUCKET} AND key = $3), 0) AS exact
     FROM own, season`,
    [serverId, hours, id],
  );
  return row?.exact ? { plays: row.plays, played_seconds: Number(row.played_seconds) } : undefined;
}

/** Whether the Series card counts plays of the item (it is a series that was played). */
async function isPlayedSeries(db: Database, serverId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM play_card_rollups WHERE server_id = $1 AND kind = 'Series' AND span = 'all' AND bucket = ${ALL_TIME_BUCKET} AND key = $2`,
    [serverId, id],
  );
  return rows.length > 0;
}

export async function globalStats(db: Database, serverId: string, scope: Scope, id: string, hours: number, cached: Memo = noMemo) {
  let row: { plays: number; played_seconds: number } | undefined;
  if (hours >= ALL_TIME_HOURS) {
    [row] = await db.query<{ plays: number; played_seconds: number }>(
      `SELECT plays, played_seconds FROM play_totals WHERE server_id = $1 AND scope = $2 AND key = $3`,
      [serverId, scope, id],
    );
  } else if (scope === 'library') {
    row = await libraryWindow(db, serverId, id, hours, cached);
  } else if (scope === 'item' && (await isPlayedSeries(db, serverId, id))) {
    row = (await seriesWindow(db, serverId, id, hours)) ?? (await historyWindow(db, serverId, scope, id, hours));
  } else {
    row = await historyWindow(db, serverId, scope, id, hours);
  }
  return { Plays: Math.max(0, row?.plays ?? 0), total_playback_duration: Math.max(0, row?.played_seconds ?? 0) };
}

/** A user's or an item's figures over the last hours, counted from the history. */
async function historyWindow(db: Database, serverId: string, scope: Scope, id: string, hours: number) {
  const parts = scope === 'user' ? ['user_id = $3'] : ITEM_PARTS;
  const [row] = await db.query<{ plays: number; played_seconds: number }>(
    `SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM (
       ${parts
         .map(
           (part) => `SELECT count(*) AS plays, sum(played_seconds) AS played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= ${START} AND ${part}`,
         )
         .join(' UNION ALL ')}
     ) AS parts`,
    [serverId, hours, id],
  );
  return row;
}

/** Rows (plays, seconds, genre) of `per_item` (item_id, series_id, plays, seconds): an item's genres, or its series' when it has none. */
export const GENRE_TAGGED_PLAYS = `tagged AS (
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.item_id
       UNION ALL
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.series_id
       WHERE NOT EXISTS (SELECT 1 FROM item_genres e WHERE e.server_id = $1 AND e.item_id = p.item_id)
     )`;

/** The 15 genres of SPEC.md §9 radar charts: the top 15 by watched seconds and the top 15 by plays (union). */
export const GENRE_LIMIT = 15;

function topGenres(rows: Array<{ genre: string; plays: number; played_seconds: number }>) {
  const byDuration = [...rows].sort((a, b) => b.played_seconds - a.played_seconds || a.genre.localeCompare(b.genre)).slice(0, GENRE_LIMIT);
  const byPlays = [...rows].sort((a, b) => b.plays - a.plays || a.genre.localeCompare(b.genre)).slice(0, GENRE_LIMIT);
  const chosen = new Set([...byDuration, ...byPlays].map((row) => row.genre));
  return rows
    .filter((row) => chosen.has(row.genre))
    .sort((a, b) => b.played_seconds - a.played_seconds || b.plays - a.plays || a.genre.localeCompare(b.genre))
    .map((row) => ({ genre: row.genre, duration: row.played_seconds, plays: row.plays }));
}

/**
 * Genres a user watched: each play counts once for every genre of what played, or of its series when the
 * episode itself carries no genre (servers often tag series only).
 */
export async function userGenres(db: Database, serverId: string, userId: string) {
  const rows = await db.query<{ genre: string; plays: number; played_seconds: number }>(
    `WITH per_item AS (
       SELECT item_id, series_id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE server_id = $1 AND user_id = $2 GROUP BY item_id, series_id
     ), ${GENRE_TAGGED_PLAYS}
     SELECT genre, sum(plays)::int AS plays, sum(seconds)::bigint AS played_seconds FROM tagged GROUP BY genre`,
    [serverId, userId],
  );
  return topGenres(rows);
}

/**
 * Genres of a library, all time, from the per-item totals: movies and tracks count their own plays, series
 * the plays of all their episodes (the totals already include them).
 */
export async function libraryGenres(db: Database, serverId: string, libraryId: string) {
  const rows = await db.query<{ genre: string; plays: number; played_seconds: number }>(
    `SELECT g.genre, sum(t.plays)::int AS plays, sum(t.played_seconds)::bigint AS played_seconds
     FROM items i
     JOIN play_totals t ON t.server_id = $1 AND t.scope = 'item' AND t.key = i.id AND t.plays > 0
     JOIN item_genres g ON g.server_id = $1 AND g.item_id = i.id
     WHERE i.server_id = $1 AND i.library_id = $2 AND i.type NOT IN ('Episode', 'Season')
     GROUP BY g.genre`,
    [serverId, libraryId],
  );
  return topGenres(rows);
}

export const LAST_PLAYED_LIMIT = 15;

/** The last 15 different things a user (or a library's users) played, newest first. */
export async function lastPlayed(db: Database, serverId: string, scope: 'user' | 'library', id: string) {
  const rows = await db.query<{
    item_id: string;
    item_name: string;
    item_type: string | null;
    series_id: string | null;
    series_name: string | null;
    season_number: number | null;
    episode_number: number | null;
    user_id: string;
    user_name: string;
    started_at: Date;
    archived: boolean | null;
    image_hash: string | null;
  }>(
    `SELECT recent.*, i.archived, i.primary_image_hash AS image_hash FROM (
       SELECT DISTINCT ON (item_id) item_id, item_name, item_type, series_id, series_name, season_number, episode_number, user_id,
         user_name, started_at
       FROM (
         SELECT * FROM playback_history WHERE server_id = $1 AND ${scope === 'user' ? 'user_id' : 'library_id'} = $2
         ORDER BY started_at DESC LIMIT 200
       ) AS latest
       ORDER BY item_id, started_at DESC
     ) AS recent
     LEFT JOIN items i ON i.server_id = $1 AND i.id = COALESCE(recent.series_id, recent.item_id)
     ORDER BY recent.started_at DESC LIMIT ${LAST_PLAYED_LIMIT}`,
    [serverId, id],
  );
  const now = Date.now();
  return rows.map((row) => ({
    Id: row.series_id ?? row.item_id,
    Name: row.series_name ?? row.item_name,
    EpisodeId: row.series_id ? row.item_id : null,
    EpisodeName: row.series_id ? row.item_name : null,
    UserId: row.user_id,
    UserName: row.user_name,
    SeasonNumber: row.season_number,
    EpisodeNumber: row.episode_number,
    LastPlayed: timePartsSince(row.started_at, now),
    ActivityDateInserted: new Date(row.started_at).toISOString(),
    archived: row.archived ?? false,
    PrimaryImageHash: row.image_hash,
  }));
}

/** The users table (SPEC.md §2 /users): all-time totals from play_totals, last play from user_last_plays (kept with the history). */
export async function allUserActivity(db: Database, serverId: string) {
  const rows = await db.rows<{
    id: string;
    name: string;
    primary_image_tag: string | null;
    tracked: boolean;
    plays: number | null;
    played_seconds: number | null;
    item_id: string | null;
    item_name: string | null;
    series_name: string | null;
    client: string | null;
    started_at: Date | null;
    last_activity_at: Date | null;
  }>(
    `SELECT u.id, u.name, u.primary_image_tag, u.tracked, t.plays, t.played_seconds, last.item_id, last.item_name, last.series_name,
       last.client, last.started_at, u.last_activity_at
     FROM media_users u
     LEFT JOIN play_totals t ON t.server_id = $1 AND t.scope = 'user' AND t.key = u.id
     LEFT JOIN user_last_plays last ON last.server_id = $1 AND last.user_id = u.id
     WHERE u.server_id = $1 AND u.removed_at IS NULL
     ORDER BY lower(u.name), u.id`,
    [serverId],
  );
  const now = Date.now();
  return rows.map((row) => {
    const seen = [row.started_at, row.last_activity_at].filter((d): d is Date => d !== null).map((d) => new Date(d).getTime());
    return {
      UserId: row.id,
      UserName: row.name,
      PrimaryImageTag: row.primary_image_tag,
      Tracked: row.tracked,
      LastWatched: row.item_name === null ? null : row.series_name ? `${row.series_name} - ${row.item_name}` : row.item_name,
      NowPlayingItemId: row.item_id,
      LastClient: row.client,
      TotalPlays: Math.max(0, row.plays ?? 0),
      TotalWatchTime: Math.max(0, row.played_seconds ?? 0),
      LastSeen: seen.length > 0 ? timePartsSince(new Date(Math.max(...seen)), now) : null,
    };
  });
}

/** Plays and watched seconds per playback method in a library over the last hours (Emby's DirectPlay is stored as DirectStream). */
export async function playMethodWindow(db: Database, serverId: string, libraryId: string, hours: number) {
  const rows = await db.query<{ key: string; plays: number; played_seconds: number }>(
    windowedRollup({
      start: START,
      rollupKey: 'play_method',
      historyKey: 'play_method',
      rollupFilter: 'library_id = $3',
      historyFilter: 'library_id = $3',
    }),
    [serverId, hours, libraryId],
  );
  const merged = new Map<string, { Count: number; Duration: number }>();
  for (const row of rows) {
    const key = row.key;
    const entry = merged.get(key) ?? { Count: 0, Duration: 0 };
    entry.Count += row.plays;
    entry.Duration += row.played_seconds;
    merged.set(key, entry);
  }
  const types = ['DirectPlay', 'DirectStream', 'Transcode'].filter((t) => merged.has(t));
  return { stats: types.map((Key) => ({ Key, ...(merged.get(Key) ?? { Count: 0, Duration: 0 }) })), types };
}
