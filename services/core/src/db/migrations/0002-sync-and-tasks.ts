import type { Migration } from './index.js';

/**
 * Library sync and the task system: a heartbeat on task runs (so a run whose process died can be told from
 * one a live replica still owns), the staging set a full sync compares against to archive what disappeared,
 * and per-server cursors for the incremental syncs.
 */
export const syncAndTasks: Migration = {
  name: '0002-sync-and-tasks',
  async up({ sql }) {
    await sql(`
ALTER TABLE task_runs ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE task_runs ADD COLUMN message text;
CREATE INDEX task_runs_name_started ON task_runs (name, started_at DESC);

-- The server's Etag of each item (changes whenever the item does): a re-sync fetches in full only items whose
-- Etag moved. BaseItemDto carries no DateLastSaved, so this is the change marker both servers offer.
ALTER TABLE items ADD COLUMN etag text;

-- What one full-sync run saw on the media server: ids and Etags. Archiving is an anti-join against it,
-- change detection a join. Unlogged: it is scratch data, rebuilt by every run, and not worth WAL.
CREATE UNLOGGED TABLE sync_seen_items (
  run_id          uuid NOT NULL,
  server_id       uuid NOT NULL,
  item_id         text NOT NULL,
  library_id      text NOT NULL,
  etag            text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, item_id)
);

-- Where the incremental syncs resume (e.g. when the last sync started, the last plugin rowid imported).
CREATE TABLE sync_cursors (
  server_id  uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  name       text NOT NULL,
  value      text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_id, name)
);

-- The plugin import stops where the activity monitor's own history begins.
CREATE INDEX history_monitor_started ON playback_history (server_id, started_at) WHERE source = 'monitor';
`);
  },
};
