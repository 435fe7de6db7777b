import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { LivePlay } from './play-state-machine.js';
import type { PlaySnapshot } from './session-sample.js';

interface LivePlayRow {
  session_id: string;
  play_key: string;
  user_id: string;
  item_id: string;
  state: LivePlay['state'];
  started_at: Date;
  last_seen_at: Date;
  last_report_at: Date | null;
  last_position_ticks: number | null;
  start_position_ticks: number | null;
  is_paused: boolean;
  played_seconds: number;
  paused_seconds: number;
  ended_at: Date | null;
  completed: boolean;
  excluded: string | null;
  segments: number;
  recorded_seconds: number | null;
  snapshot: PlaySnapshot;
}

/** The live play state of one media server (live_sessions). */
export async function loadLivePlays(db: Database, serverId: string, transaction?: Transaction): Promise<LivePlay[]> {
  const rows = await db.query<LivePlayRow>(
    `SELECT session_id, play_key, user_id, item_id, state, started_at, last_seen_at, last_report_at, last_position_ticks,
       start_position_ticks, is_paused, played_seconds, paused_seconds, ended_at, completed, excluded, segments, recorded_seconds,
       snapshot
     FROM live_sessions WHERE server_id = $1 ORDER BY started_at, play_key`,
    [serverId],
    transaction,
  );
  return rows.map((row) => ({
    playKey: row.play_key,
    sessionId: row.session_id,
    userId: row.user_id,
    itemId: row.item_id,
    state: row.state,
    startedAtMs: row.started_at.getTime(),
    lastReportAtMs: (row.last_report_at ?? row.last_seen_at).getTime(),
    lastSeenAtMs: row.last_seen_at.getTime(),
    positionTicks: row.last_position_ticks,
    startPositionTicks: row.start_position_ticks,
    isPaused: row.is_paused,
    playedSeconds: row.played_seconds,
    pausedSeconds: row.paused_seconds,
    endedAtMs: row.ended_at?.getTime() ?? null,
    completed: row.completed,
    excluded: row.excluded,
    segments: row.segments,
    recordedSeconds: row.recorded_seconds,
    snapshot: row.snapshot,
  }));
}

/**
 * Serialises writers of one server's live state inside a transaction. Leader election already keeps one
 * monitor per server; this covers the moment of a failover when an old leader may still finish a poll.
 */
export async function lockServerPlays(db: Database, serverId: string, transaction: Transaction): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('reelstat-activity:' || $1::text)) AS locked`, [serverId], transaction);
}

/** Deletes finished plays, then inserts or updates changed ones (in the order given). */
export async function saveLivePlays(
  db: Database,
  serverId: string,
  upserts: readonly LivePlay[],
  deletes: readonly string[],
  transaction: Transaction,
): Promise<void> {
  if (deletes.length > 0) {
    await db.query(
      'DELETE FROM live_sessions WHERE server_id = $1 AND play_key = ANY($2::text[]) RETURNING 1 AS deleted',
      [serverId, deletes],
      transaction,
    );
  }
  if (upserts.length === 0) return;
  const rows = upserts.map((play, index) => ({
    ord: index,
    server_id: serverId,
    session_id: play.sessionId,
    play_key: play.playKey,
    user_id: play.userId,
    item_id: play.itemId,
    state: play.state,
    started_at: new Date(play.startedAtMs).toISOString(),
    last_seen_at: new Date(play.lastSeenAtMs).toISOString(),
    last_report_at: new Date(play.lastReportAtMs).toISOString(),
    last_position_ticks: play.positionTicks,
    start_position_ticks: play.startPositionTicks,
    is_paused: play.isPaused,
    played_seconds: play.playedSeconds,
    paused_seconds: play.pausedSeconds,
    ended_at: play.endedAtMs === null ? null : new Date(play.endedAtMs).toISOString(),
    completed: play.completed,
    excluded: play.excluded,
    segments: play.segments,
    recorded_seconds: play.recordedSeconds,
    snapshot: play.snapshot,
  }));
  await db.query(
    `INSERT INTO live_sessions AS l (server_id, session_id, play_key, user_id, item_id, state, started_at, last_seen_at, last_report_at,
       last_position_ticks, start_position_ticks, is_paused, played_seconds, paused_seconds, ended_at, completed, excluded, segments, recorded_seconds,
       snapshot)
     SELECT r.server_id, r.session_id, r.play_key, r.user_id, r.item_id, r.state, r.started_at, r.last_seen_at, r.last_report_at,
       r.last_position_ticks, r.start_position_ticks, r.is_paused, r.played_seconds, r.paused_seconds, r.ended_at, r.completed, r.excluded,
       r.segments, r.recorded_seconds, r.snapshot
     FROM json_to_recordset($1::json) AS r(ord int, server_id uuid, session_id text, play_key text, user_id text, item_id text, state text,
       started_at timestamptz, last_seen_at timestamptz, last_report_at timestamptz, last_position_ticks bigint, start_position_ticks bigint,
       is_paused boolean, played_seconds double precision, paused_seconds double precision, ended_at timestamptz, completed boolean,
       excluded text, segments integer, recorded_seconds double precision, snapshot jsonb)
     ORDER BY r.ord
     ON CONFLICT (server_id, play_key) DO UPDATE SET
       session_id = EXCLUDED.session_id, state = EXCLUDED.state, last_seen_at = EXCLUDED.last_seen_at,
       last_report_at = EXCLUDED.last_report_at, last_position_ticks = EXCLUDED.last_position_ticks, is_paused = EXCLUDED.is_paused,
       played_seconds = EXCLUDED.played_seconds, paused_seconds = EXCLUDED.paused_seconds, ended_at = EXCLUDED.ended_at,
       completed = EXCLUDED.completed, segments = EXCLUDED.segments,
       recorded_seconds = EXCLUDED.recorded_seconds, snapshot = EXCLUDED.snapshot
     RETURNING 1 AS written`,
    [JSON.stringify(rows)],
    transaction,
  );
}
