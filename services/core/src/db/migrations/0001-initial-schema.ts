import type { Migration } from './index.js';

/**
 * The first schema: every entity of SPEC.md §3 and DESIGN.md §4.
 * Media tables carry server_id and are keyed by the media server's own ids (never remapped).
 * Times are timestamptz (UTC); days and hours are bucketed in a time zone at query time.
 */
export const initialSchema: Migration = {
  name: '0001-initial-schema',
  async up({ sql }) {
    await sql(`
-- The link to a media server (one row per Jellyfin or Emby server watched).
CREATE TABLE media_servers (
  id              uuid PRIMARY KEY,
  name            text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('jellyfin', 'emby')),
  url             text NOT NULL,
  api_key_encrypted text NOT NULL,
  external_url    text,
  remote_server_id text,
  version         text,
  is_default      boolean NOT NULL DEFAULT false,
  managed_by      text NOT NULL DEFAULT 'ui' CHECK (managed_by IN ('ui', 'environment', 'kubernetes')),
  managed_ref     text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX media_servers_one_default ON media_servers (is_default) WHERE is_default;
CREATE UNIQUE INDEX media_servers_managed_ref ON media_servers (managed_ref) WHERE managed_ref IS NOT NULL;

-- Runtime settings edited from the Settings screen (key -> JSON value).
CREATE TABLE app_settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The local administrator account.
CREATE TABLE admin_accounts (
  id            serial PRIMARY KEY,
  username      text NOT NULL,
  password_hash text NOT NULL,
  token_version integer NOT NULL DEFAULT 1,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX admin_accounts_username ON admin_accounts (lower(username));

CREATE TABLE api_keys (
  id           serial PRIMARY KEY,
  name         text NOT NULL,
  key_hash     text NOT NULL UNIQUE,
  key_preview  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);

-- Users of the media server.
CREATE TABLE media_users (
  server_id          uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  id                 text NOT NULL,
  name               text NOT NULL,
  is_administrator   boolean NOT NULL DEFAULT false,
  primary_image_tag  text,
  last_activity_at   timestamptz,
  last_login_at      timestamptz,
  tracked            boolean NOT NULL DEFAULT true,
  removed_at         timestamptz,
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_id, id)
);
CREATE INDEX media_users_name ON media_users (server_id, lower(name));

CREATE TABLE libraries (
  server_id         uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  id                text NOT NULL,
  name              text NOT NULL,
  collection_type   text NOT NULL DEFAULT 'mixed',
  tracked           boolean NOT NULL DEFAULT true,
  archived          boolean NOT NULL DEFAULT false,
  primary_image_tag text,
  primary_image_hash text,
  item_count        integer NOT NULL DEFAULT 0,
  season_count      integer NOT NULL DEFAULT 0,
  episode_count     integer NOT NULL DEFAULT 0,
  file_count        integer NOT NULL DEFAULT 0,
  total_size        bigint NOT NULL DEFAULT 0,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_id, id)
);

-- Movies, series, seasons, episodes, artists, albums, tracks: one table, parent links by media-server id.
CREATE TABLE items (
  server_id           uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  id                  text NOT NULL,
  library_id          text,
  type                text NOT NULL,
  name                text NOT NULL,
  sort_name           text,
  parent_id           text,
  series_id           text,
  series_name         text,
  season_id           text,
  season_name         text,
  album_id            text,
  album_name          text,
  artists             text[],
  index_number        integer,
  parent_index_number integer,
  production_year     integer,
  community_rating    real,
  official_rating     text,
  run_time_ticks      bigint,
  size                bigint,
  path                text,
  file_name           text,
  container           text,
  date_created        timestamptz,
  date_last_saved     timestamptz,
  premiere_date       timestamptz,
  primary_image_tag   text,
  primary_image_hash  text,
  image_tags          jsonb,
  image_blur_hashes   jsonb,
  provider_ids        jsonb,
  archived            boolean NOT NULL DEFAULT false,
  archived_at         timestamptz,
  last_synced_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_id, id)
);
CREATE INDEX items_library_type ON items (server_id, library_id, type);
CREATE INDEX items_series ON items (server_id, series_id) WHERE series_id IS NOT NULL;
CREATE INDEX items_season ON items (server_id, season_id) WHERE season_id IS NOT NULL;
CREATE INDEX items_parent ON items (server_id, parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX items_date_created ON items (server_id, date_created DESC);
CREATE INDEX items_name ON items (server_id, lower(name));

CREATE TABLE media_sources (
  server_id      uuid NOT NULL,
  item_id        text NOT NULL,
  id             text NOT NULL,
  name           text,
  path           text,
  container      text,
  size           bigint,
  bitrate        bigint,
  run_time_ticks bigint,
  PRIMARY KEY (server_id, item_id, id),
  FOREIGN KEY (server_id, item_id) REFERENCES items (server_id, id) ON DELETE CASCADE
);

CREATE TABLE media_streams (
  server_id       uuid NOT NULL,
  item_id         text NOT NULL,
  media_source_id text NOT NULL,
  stream_index    integer NOT NULL,
  type            text NOT NULL,
  codec           text,
  language        text,
  display_title   text,
  height          integer,
  width           integer,
  bit_rate        bigint,
  channels        integer,
  real_frame_rate real,
  video_range     text,
  video_range_type text,
  aspect_ratio    text,
  is_default      boolean,
  PRIMARY KEY (server_id, item_id, media_source_id, stream_index),
  FOREIGN KEY (server_id, item_id, media_source_id) REFERENCES media_sources (server_id, item_id, id) ON DELETE CASCADE
);

CREATE TABLE item_genres (
  server_id uuid NOT NULL,
  item_id   text NOT NULL,
  genre     text NOT NULL,
  PRIMARY KEY (server_id, item_id, genre),
  FOREIGN KEY (server_id, item_id) REFERENCES items (server_id, id) ON DELETE CASCADE
);
CREATE INDEX item_genres_genre ON item_genres (server_id, genre);

-- What was played: one row per play, written once when the play ends (or imported).
-- item_id is what played (episode, movie, track); series/season ids are copied so history survives purges.
CREATE TABLE playback_history (
  id                   bigserial PRIMARY KEY,
  server_id            uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  play_key             text NOT NULL,
  source               text NOT NULL DEFAULT 'monitor' CHECK (source IN ('monitor', 'playback_reporting', 'restore')),
  user_id              text NOT NULL,
  user_name            text NOT NULL,
  item_id              text NOT NULL,
  item_name            text NOT NULL,
  item_type            text,
  series_id            text,
  series_name          text,
  season_id            text,
  season_number        integer,
  episode_number       integer,
  library_id           text,
  client               text,
  device_name          text,
  device_id            text,
  application_version  text,
  remote_end_point     text,
  play_method          text NOT NULL DEFAULT 'DirectPlay' CHECK (play_method IN ('DirectPlay', 'DirectStream', 'Transcode')),
  transcoding_info     jsonb,
  stream_details       jsonb,
  started_at           timestamptz NOT NULL,
  ended_at             timestamptz,
  played_seconds       integer NOT NULL DEFAULT 0 CHECK (played_seconds >= 0),
  paused_seconds       integer NOT NULL DEFAULT 0 CHECK (paused_seconds >= 0),
  start_position_ticks bigint,
  end_position_ticks   bigint,
  run_time_ticks       bigint,
  created_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (server_id, play_key)
);
CREATE INDEX history_started ON playback_history (server_id, started_at DESC);
CREATE INDEX history_user_started ON playback_history (server_id, user_id, started_at DESC);
CREATE INDEX history_library_started ON playback_history (server_id, library_id, started_at DESC);
CREATE INDEX history_item_started ON playback_history (server_id, item_id, started_at DESC);
CREATE INDEX history_series_started ON playback_history (server_id, series_id, started_at DESC) WHERE series_id IS NOT NULL;
CREATE INDEX history_client ON playback_history (server_id, client);
CREATE INDEX history_play_method ON playback_history (server_id, play_method, started_at DESC);

-- Plays in progress, as the activity monitor last saw them. Kept in the database so that a restart or a
-- leader failover continues a play instead of losing or doubling it.
CREATE TABLE live_sessions (
  server_id            uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  session_id           text NOT NULL,
  play_key             text NOT NULL,
  user_id              text NOT NULL,
  item_id              text NOT NULL,
  started_at           timestamptz NOT NULL,
  last_seen_at         timestamptz NOT NULL,
  last_position_ticks  bigint,
  is_paused            boolean NOT NULL DEFAULT false,
  played_seconds       double precision NOT NULL DEFAULT 0,
  paused_seconds       double precision NOT NULL DEFAULT 0,
  snapshot             jsonb NOT NULL,
  PRIMARY KEY (server_id, session_id)
);

-- Incrementally maintained totals for statistics, updated in the same transaction as each play.
CREATE TABLE daily_rollups (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  day            date NOT NULL,
  user_id        text NOT NULL,
  item_id        text NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  client         text NOT NULL DEFAULT '',
  play_method    text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, day, user_id, item_id, library_id, client, play_method)
);
CREATE INDEX daily_rollups_day ON daily_rollups (server_id, day);

CREATE TABLE webhooks (
  id                serial PRIMARY KEY,
  name              text NOT NULL,
  url               text NOT NULL,
  webhook_type      text NOT NULL DEFAULT 'discord' CHECK (webhook_type IN ('discord', 'generic')),
  trigger_type      text NOT NULL DEFAULT 'scheduled' CHECK (trigger_type IN ('scheduled', 'event')),
  event_type        text CHECK (event_type IN ('playback_started', 'playback_ended', 'media_recently_added')),
  schedule          text DEFAULT '0 9 1 * *',
  method            text NOT NULL DEFAULT 'POST',
  headers           jsonb NOT NULL DEFAULT '{}'::jsonb,
  enabled           boolean NOT NULL DEFAULT true,
  last_triggered_at timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id               bigserial PRIMARY KEY,
  webhook_id       integer NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_type       text NOT NULL,
  payload          jsonb NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error       text,
  next_attempt_at  timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- Background task runs (syncs, imports, backups) and their console-style log lines.
CREATE TABLE task_runs (
  id               uuid PRIMARY KEY,
  name             text NOT NULL,
  type             text NOT NULL CHECK (type IN ('JOB', 'IMPORT')),
  execution_type   text NOT NULL CHECK (execution_type IN ('Manual', 'Automatic')),
  server_id        uuid REFERENCES media_servers (id) ON DELETE SET NULL,
  result           text NOT NULL DEFAULT 'Running' CHECK (result IN ('Running', 'Success', 'Failed', 'Cancelled')),
  progress         real,
  instance_id      text,
  started_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz
);
CREATE INDEX task_runs_started ON task_runs (started_at DESC);
CREATE INDEX task_runs_running ON task_runs (name) WHERE result = 'Running';

CREATE TABLE task_run_logs (
  id      bigserial PRIMARY KEY,
  run_id  uuid NOT NULL REFERENCES task_runs (id) ON DELETE CASCADE,
  at      timestamptz NOT NULL DEFAULT now(),
  message text NOT NULL,
  color   text NOT NULL DEFAULT 'white'
);
CREATE INDEX task_run_logs_run ON task_run_logs (run_id, id);

CREATE TABLE backups (
  id         serial PRIMARY KEY,
  file_name  text NOT NULL UNIQUE,
  size       bigint NOT NULL DEFAULT 0,
  tables     text[] NOT NULL DEFAULT '{}',
  status     text NOT NULL DEFAULT 'complete' CHECK (status IN ('running', 'complete', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
`);
  },
};
