import type { Migration } from './index.js';

/**
 * People who sign in with an account Reelstat does not keep the password of: a media-server account (checked
 * with the media server at each sign-in) or an OpenID Connect identity. The one local administrator stays in
 * admin_accounts. A row remembers who the person is (to scope a viewer to their own statistics), their role as
 * of their last sign-in, and a token version (bumped to revoke their tokens).
 */
export const signInAccounts: Migration = {
  name: '0014-sign-in-accounts',
  async up({ sql }) {
    await sql(`
CREATE TABLE sign_in_accounts (
  id              serial PRIMARY KEY,
  method          text NOT NULL CHECK (method IN ('media-server', 'oidc')),
  -- Stable identity within the method: "<server id>:<user id>" for a media-server account, "<issuer> <sub>" for OIDC.
  subject         text NOT NULL,
  username        text NOT NULL,
  role            text NOT NULL CHECK (role IN ('admin', 'viewer')),
  -- The media-server user whose statistics are this person's own (null: an OIDC identity linked to nobody).
  server_id       uuid REFERENCES media_servers (id) ON DELETE CASCADE,
  media_user_id   text,
  token_version   integer NOT NULL DEFAULT 1,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((server_id IS NULL) = (media_user_id IS NULL))
);
CREATE UNIQUE INDEX sign_in_accounts_subject ON sign_in_accounts (method, subject);
`);
  },
};
