import { AppError, createMediaServerClient, linkMediaServer, onMediaServerLinked, type Runtime } from '@reelstat/core';
import {
  adminUsersAnswer,
  configAnswer,
  externalUrlBody,
  mediaServerLinkBody,
  messageAnswer as message,
  preferredAdmin,
  requireLoginBody,
  updateCredentialsAnswer,
  updateCredentialsBody,
  updateInfoAnswer,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';

/** The server named by serverId (checked by the route layer), else the default one. */
async function scopedServer(runtime: Runtime, serverId: string | undefined) {
  const link = serverId ? await runtime.services.mediaServers.get(serverId) : await runtime.services.mediaServers.getDefault();
  if (!link) throw AppError.conflict('No media server is linked yet');
  return link;
}

export const settingsRoutes = [
  route({
    method: 'get',
    path: '/api/getconfig',
    tag: 'settings',
    summary: 'Configuration for the dashboard (never secrets); the media-server fields are those of the serverId server',
    access: 'admin',
    servers: 'one',
    response: configAnswer,
    handle: async ({ runtime, serverId }) => {
      const { mediaServers, settings, auth } = runtime.services;
      const { geolocation } = runtime.config;
      const [link, requireLogin, externalUrl, preferredAdmin, appUser] = await Promise.all([
        serverId ? mediaServers.get(serverId) : mediaServers.getDefault(),
        settings.get('REQUIRE_LOGIN'),
        settings.get('EXTERNAL_URL'),
        settings.get('PREFERRED_ADMIN'),
        auth.adminUsername(),
      ]);
      return {
        JF_HOST: link?.url ?? null,
        APP_USER: appUser ?? null,
        REQUIRE_LOGIN: requireLogin,
        IS_JELLYFIN: link ? link.kind === 'jellyfin' : true,
        MANAGED_BY: link?.managedBy ?? null,
        MANAGED_REF: link?.managedRef ?? null,
        MEDIA_SERVER_KEY_ERROR: link?.apiKeyError ?? null,
        settings: {
          // Another server than the default keeps its external URL on its own link.
          EXTERNAL_URL: link && !link.isDefault ? (link.externalUrl ?? '') : externalUrl,
          ServerID: link?.remoteServerId ?? null,
          preferred_admin: preferredAdmin,
          GEOLITE_ACCOUNT_ID: geolocation.accountId && geolocation.licenseKey ? geolocation.accountId : null,
          GEOLOCATION_ENABLED: Boolean((geolocation.accountId && geolocation.licenseKey) || geolocation.databasePath),
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/api/setconfig',
    tag: 'settings',
    summary: 'Change the media server URL and API key (checked before saving)',
    access: 'admin',
    body: mediaServerLinkBody,
    response: message,
    handle: async ({ body, runtime }) => {
      const current = await runtime.services.mediaServers.getDefault();
      if (current && current.managedBy !== 'ui') {
        throw AppError.conflict(
          `The media server is managed by ${current.managedBy === 'kubernetes' ? `Kubernetes (${current.managedRef ?? 'MediaStatsServer'})` : 'environment variables'}; change it there`,
        );
      }
      const link = await linkMediaServer(runtime.services.mediaServers, { url: body.JF_HOST, apiKey: body.JF_API_KEY }, runtime.logger);
      await onMediaServerLinked(runtime);
      return { message: `Linked ${link.kind === 'emby' ? 'Emby' : 'Jellyfin'} server ${link.name}` };
    },
  }),
  route({
    method: 'post',
    path: '/api/setExternalUrl',
    tag: 'settings',
    summary: 'The media server address users open in their browser (links to items)',
    access: 'admin',
    servers: 'one',
    body: externalUrlBody,
    response: message,
    handle: async ({ body, runtime, serverId }) => {
      const link = serverId ? await runtime.services.mediaServers.get(serverId) : undefined;
      const url = body.ExternalUrl.replace(/\/+$/, '');
      if (link && !link.isDefault) await runtime.services.mediaServers.setExternalUrl(link.id, url || null);
      else await runtime.services.settings.set('EXTERNAL_URL', url);
      return { message: 'External URL saved' };
    },
  }),
  route({
    method: 'post',
    path: '/api/setPreferredAdmin',
    tag: 'settings',
    summary: 'Which media-server administrator Reelstat acts as where a user is needed',
    access: 'admin',
    body: preferredAdmin,
    response: message,
    handle: async ({ body, runtime }) => {
      await runtime.services.settings.set('PREFERRED_ADMIN', { userid: body.userid, username: body.username });
      return { message: 'Preferred administrator saved' };
    },
  }),
  route({
    method: 'get',
    path: '/proxy/getAdminUsers',
    tag: 'settings',
    summary: 'Administrators of the media server',
    access: 'admin',
    servers: 'one',
    response: adminUsersAnswer,
    handle: async ({ runtime, serverId }) => {
      const link = await scopedServer(runtime, serverId);
      const users = await createMediaServerClient(link).getAdminUsers();
      return users.map((user) => ({ Id: user.Id, Name: user.Name ?? '' }));
    },
  }),
  route({
    method: 'post',
    path: '/api/updateCredentials',
    tag: 'settings',
    summary: 'Change the username and/or password; a password change revokes older tokens',
    access: 'admin',
    body: updateCredentialsBody,
    response: updateCredentialsAnswer,
    handle: async ({ body, principal, runtime }) => {
      // Only the local administrator has credentials here: media-server and OIDC passwords live elsewhere.
      if (principal?.kind !== 'admin' || !principal.accountId) {
        return { isValid: false, errorMessage: 'Log in with the administrator account to change its credentials' };
      }
      return runtime.services.auth.updateCredentials(principal.accountId, {
        username: body.username,
        currentPassword: body.current_password || undefined,
        newPassword: body.new_password || undefined,
      });
    },
  }),
  route({
    method: 'post',
    path: '/api/setRequireLogin',
    tag: 'settings',
    summary: 'Turn login on or off (off: anyone who can reach Reelstat acts as the administrator)',
    access: 'admin',
    body: requireLoginBody,
    response: message,
    handle: async ({ body, runtime }) => {
      await runtime.services.settings.set('REQUIRE_LOGIN', body.REQUIRE_LOGIN);
      return {
        message: body.REQUIRE_LOGIN ? 'Login is required' : 'Login is off: anyone who can reach Reelstat acts as the administrator',
      };
    },
  }),
  route({
    method: 'get',
    path: '/api/CheckForUpdates',
    tag: 'settings',
    summary: 'Current and latest version (answers within 5 s, even offline)',
    access: 'admin',
    response: updateInfoAnswer,
    handle: async ({ runtime }) => runtime.services.updates.check(),
  }),
];
