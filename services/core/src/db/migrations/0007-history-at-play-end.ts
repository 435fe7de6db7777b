import type { Migration } from './index.js';

/**
 * Plays are written to the history when they end (issue 12), so the live state remembers what each ended play's
 * history row holds (recorded_seconds; NULL = no row yet), and a resume within the merge window extends it.
 *
 * Emby's play-method rule (SPEC.md §3: a non-Jellyfin server's DirectPlay is shown as DirectStream) is now
 * applied once, when a row is written (writeHistory), instead of by every reader. Rows written before keep
 * what the server reported; they are rewritten here once, and their quarter-hour rollups are moved from
 * DirectPlay to DirectStream (the daily level follows through its triggers; totals have no play method).
 */
const NOT_JELLYFIN = `server_id IN (SELECT id FROM media_servers WHERE kind <> 'jellyfin')`;

export const historyAtPlayEnd: Migration = {
  name: '0007-history-at-play-end',
  async up({ sql }) {
    await sql(`
ALTER TABLE live_sessions ADD COLUMN recorded_seconds double precision;

UPDATE playback_history SET play_method = 'DirectStream' WHERE play_method = 'DirectPlay' AND ${NOT_JELLYFIN};

INSERT INTO play_rollups AS r (server_id, bucket, library_id, client, play_method, plays, played_seconds)
SELECT server_id, bucket, library_id, client, 'DirectStream', plays, played_seconds
FROM play_rollups WHERE play_method = 'DirectPlay' AND ${NOT_JELLYFIN}
ON CONFLICT (server_id, bucket, library_id, client, play_method)
DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds;

DELETE FROM play_rollups WHERE play_method = 'DirectPlay' AND ${NOT_JELLYFIN};
`);
  },
};
