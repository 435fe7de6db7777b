import type { Migration } from './index.js';

/**
 * The activity monitor's live state. A play is keyed by its play_key (not by the session), because a play that
 * stopped part-way stays here as 'ended' during the resume window while the same session may already play
 * something else; at most one play per session is 'playing'.
 */
export const activityMonitor: Migration = {
  name: '0003-activity-monitor',
  async up({ sql }) {
    await sql(`
ALTER TABLE live_sessions DROP CONSTRAINT live_sessions_pkey;
ALTER TABLE live_sessions
  ADD COLUMN state                text NOT NULL DEFAULT 'playing' CHECK (state IN ('playing', 'ended')),
  ADD COLUMN last_report_at       timestamptz,
  ADD COLUMN start_position_ticks bigint,
  ADD COLUMN ended_at             timestamptz,
  ADD COLUMN completed            boolean NOT NULL DEFAULT false,
  ADD COLUMN excluded             text,
  ADD COLUMN segments             integer NOT NULL DEFAULT 1;
ALTER TABLE live_sessions ADD PRIMARY KEY (server_id, play_key);
CREATE UNIQUE INDEX live_sessions_one_play_per_session ON live_sessions (server_id, session_id) WHERE state = 'playing';
CREATE INDEX live_sessions_resumable ON live_sessions (server_id, user_id, item_id) WHERE state = 'ended';
`);
  },
};
