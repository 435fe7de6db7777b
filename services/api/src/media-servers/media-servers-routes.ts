import { AppError, checkMediaServer, onMediaServerLinked, usableApiKey, type MediaServerLink, type Runtime } from '@reelstat/core';
import {
  addMediaServerBody,
  editMediaServerBody,
  mediaServerChangeAnswer,
  mediaServerIdParams,
  mediaServersAnswer,
  messageAnswer,
  testMediaServerAnswer,
  testMediaServerBody,
  type MediaServerAnswer,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';

const tag = 'media servers';

function toAnswer(link: MediaServerLink): MediaServerAnswer {
  return {
    Id: link.id,
    Name: link.name,
    Kind: link.kind,
    Url: link.url,
    ExternalUrl: link.externalUrl,
    Version: link.version,
    IsDefault: link.isDefault,
    ManagedBy: link.managedBy,
    ManagedRef: link.managedRef,
    Suspended: link.suspended,
    ApiKeyError: link.apiKeyError,
  };
}

/** A live server that the Settings screen may change: 404 when unknown or removed, 409 when managed elsewhere. */
async function editableServer(runtime: Runtime, id: string): Promise<MediaServerLink> {
  const link = await runtime.services.mediaServers.get(id.toLowerCase());
  if (!link || link.archived) throw new AppError(404, 'media_server_not_found', `No media server has the Id ${id}`);
  if (link.managedBy === 'kubernetes') {
    throw AppError.conflict(
      `${link.name} is managed by Kubernetes (${link.managedRef ?? 'MediaStatsServer'}); change its MediaStatsServer instead`,
    );
  }
  if (link.managedBy === 'environment') {
    throw AppError.conflict(`${link.name} is managed by environment variables (JF_HOST, JF_API_KEY); change them instead`);
  }
  return link;
}

/**
 * The server list of Settings: several media servers in one install. Adding or changing an address or key runs
 * the setup probe first (reachable, key accepted, kind detected), so a bad server is refused with the reason
 * and nothing is saved. Removing archives: monitoring and sync stop, the history stays.
 */
export const mediaServersRoutes = [
  route({
    method: 'get',
    path: '/api/mediaServers',
    tag,
    summary: 'The linked media servers, the default one first (never their API keys)',
    access: 'admin',
    response: mediaServersAnswer,
    handle: async ({ runtime }) => (await runtime.services.mediaServers.list()).map(toAnswer),
  }),
  route({
    method: 'post',
    path: '/api/mediaServers',
    tag,
    summary: 'Add a media server (checked first: reachable, API key accepted, Jellyfin or Emby); a full sync starts',
    access: 'admin',
    body: addMediaServerBody,
    response: mediaServerChangeAnswer,
    status: 201,
    handle: async ({ body, runtime }) => {
      const probe = await checkMediaServer(body.Url, body.ApiKey, runtime.logger);
      const links = runtime.services.mediaServers;
      const duplicate = (await links.list()).find((link) => link.remoteServerId && link.remoteServerId === probe.serverId);
      if (duplicate) throw AppError.conflict(`This media server is already linked as ${duplicate.name}`);
      const link = await links.add({
        name: body.Name ?? (probe.serverName || (probe.kind === 'emby' ? 'Emby' : 'Jellyfin')),
        kind: probe.kind,
        url: probe.url,
        apiKey: body.ApiKey,
        remoteServerId: probe.serverId,
        version: probe.version,
      });
      runtime.logger.info({ serverId: link.id, kind: link.kind, url: link.url }, 'media server added');
      await onMediaServerLinked(runtime);
      return { message: `Added ${link.kind === 'emby' ? 'Emby' : 'Jellyfin'} server ${link.name}`, server: toAnswer(link) };
    },
  }),
  route({
    method: 'put',
    path: '/api/mediaServers/:id',
    tag,
    summary: 'Rename a media server, change its address or API key (checked first), or make it the default one',
    access: 'admin',
    params: mediaServerIdParams,
    body: editMediaServerBody,
    response: mediaServerChangeAnswer,
    handle: async ({ body, params, runtime }) => {
      const links = runtime.services.mediaServers;
      const current = await editableServer(runtime, params.id);
      let checked: Awaited<ReturnType<typeof checkMediaServer>> | undefined;
      if (body.Url !== undefined || body.ApiKey !== undefined) {
        checked = await checkMediaServer(body.Url ?? current.url, body.ApiKey ?? usableApiKey(current), runtime.logger);
        if (current.remoteServerId && checked.serverId !== current.remoteServerId) {
          throw AppError.conflict(
            `${body.Url ?? current.url} is another media server than ${current.name}; add it as a new server instead`,
          );
        }
      }
      const updated = await links.update(current.id, {
        name: body.Name,
        url: checked?.url,
        kind: checked?.kind,
        apiKey: body.ApiKey,
        version: checked?.version,
        remoteServerId: checked?.serverId,
      });
      if (body.IsDefault) await links.setDefault(current.id);
      const link = (await links.get(current.id)) ?? updated!;
      return { message: `${link.name} saved`, server: toAnswer(link) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/mediaServers/:id',
    tag,
    summary: 'Remove a media server: archived (monitoring and sync stop), its history kept',
    access: 'admin',
    params: mediaServerIdParams,
    response: messageAnswer,
    handle: async ({ params, runtime }) => {
      const link = await editableServer(runtime, params.id);
      await runtime.services.mediaServers.archive(link.id);
      runtime.logger.info({ serverId: link.id }, 'media server removed (archived)');
      return { message: `${link.name} removed; its history is kept` };
    },
  }),
  route({
    method: 'post',
    path: '/api/mediaServers/test',
    tag,
    summary: 'Test an address and API key before adding a server (ok false with the reason when the check fails)',
    access: 'admin',
    body: testMediaServerBody,
    response: testMediaServerAnswer,
    handle: ({ body, runtime }) => testConnection(body.Url, body.ApiKey, runtime.logger),
  }),
  route({
    method: 'post',
    path: '/api/mediaServers/:id/test',
    tag,
    summary: "Test a linked server's connection with its saved address and API key",
    access: 'admin',
    params: mediaServerIdParams,
    response: testMediaServerAnswer,
    handle: async ({ params, runtime }) => {
      const link = await runtime.services.mediaServers.get(params.id.toLowerCase());
      if (!link) throw new AppError(404, 'media_server_not_found', `No media server has the Id ${params.id}`);
      // A key that cannot be decrypted is not sent as an empty one: the answer says what to do instead.
      if (link.apiKeyError !== null) return { ok: false, message: link.apiKeyError, Kind: null, Version: null, ServerName: null };
      return testConnection(link.url, link.apiKey, runtime.logger);
    },
  }),
];

async function testConnection(url: string, apiKey: string, logger: Runtime['logger']) {
  try {
    const probe = await checkMediaServer(url, apiKey, logger);
    const kind = probe.kind === 'emby' ? 'Emby' : 'Jellyfin';
    return {
      ok: true,
      message: `${kind} ${probe.version} answers at ${probe.url} and accepts the API key`,
      Kind: probe.kind,
      Version: probe.version,
      ServerName: probe.serverName || null,
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { ok: false, message: error.message, Kind: null, Version: null, ServerName: null };
  }
}
