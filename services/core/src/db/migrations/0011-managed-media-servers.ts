import type { Migration } from './index.js';

/**
 * Media servers declared elsewhere (a Kubernetes MediaStatsServer) can be suspended (no monitoring, no sync)
 * and archived (removed from use, history kept: rows keep pointing at the server). Their declared settings
 * (libraries, intervals) are kept as given, in `settings`.
 */
export const managedMediaServers: Migration = {
  name: '0011-managed-media-servers',
  async up({ sql }) {
    await sql(`
ALTER TABLE media_servers
  ADD COLUMN suspended   boolean NOT NULL DEFAULT false,
  ADD COLUMN archived_at timestamptz,
  ADD COLUMN settings    jsonb NOT NULL DEFAULT '{}'::jsonb;
-- An archived resource name may be declared again later: only live links must have unique references.
DROP INDEX media_servers_managed_ref;
CREATE UNIQUE INDEX media_servers_managed_ref ON media_servers (managed_ref) WHERE managed_ref IS NOT NULL AND archived_at IS NULL;
`);
  },
};
