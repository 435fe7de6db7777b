import type { Migration } from './index.js';

/**
 * Who created each API key (the administrator's username, or "anonymous" when require-login was off), so the
 * API-keys table can show it. Keys created before this migration have no creator (NULL).
 */
export const apiKeyCreator: Migration = {
  name: '0008-api-key-creator',
  async up({ sql }) {
    await sql(`ALTER TABLE api_keys ADD COLUMN created_by text`);
  },
};
