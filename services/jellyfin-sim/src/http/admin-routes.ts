/** Administration: activity log, devices, plugins and the Playback Reporting query. */
import { imageTag } from '../images.js';
import { formatDate, normalizeId } from '../wire.js';
import { sendJson } from './context.js';
import { route, type Route, notFound } from './route.js';
import type { RouteKit } from './route-kit.js';

export function adminRoutes(kit: RouteKit): Route[] {
  const { st, jf, queryResult } = kit;
  const plugins = (): Record<string, unknown>[] => {
    const pr = jf
      ? {
          Name: 'Playback Reporting',
          Version: '17.0.0.0',
          ConfigurationFileName: 'Jellyfin.Plugin.PlaybackReporting.xml',
          Description: 'Collect and show user play statistics',
          Id: '5c53438191a343cb907a35aa02eb9d2c',
          CanUninstall: true,
          HasImage: true,
          Status: st.pluginEnabled ? 'Active' : 'Disabled',
        }
      : {
          Name: 'Playback Reporting',
          Version: '2.1.0.0',
          ConfigurationFileName: 'playback_reporting.xml',
          Description: 'Show reports for playback activity',
          Id: '9e6eb40f-9a1b-4a6e-9d2b-3e5b7f1a0c11',
          ImageTag: imageTag('plugin', 'pr', 0),
        };
    const tmdb = jf
      ? {
          Name: 'TMDb',
          Version: '10.11.11.0',
          Description: 'Get metadata for movies and other video content from TheMovieDb.',
          Id: 'b8715ed16c4745289ad3f72deb539cd4',
          CanUninstall: false,
          HasImage: false,
          Status: 'Active',
        }
      : undefined;
    return jf ? [tmdb as Record<string, unknown>, ...(st.pluginEnabled ? [pr] : [pr])] : st.pluginEnabled ? [pr] : [];
  };

  return [
    route('GET', '/System/ActivityLog/Entries', 'admin', (c) => {
      const p = c.params;
      const minDate = p.get('minDate') ? Date.parse(p.get('minDate') as string) : undefined;
      const hasUserId = p.bool('hasUserId');
      let list = [...st.activity].reverse();
      if (minDate !== undefined && !Number.isNaN(minDate)) list = list.filter((e) => e.dateMs >= minDate);
      if (hasUserId !== undefined) list = list.filter((e) => (e.userId !== undefined) === hasUserId);
      const start = p.int('startIndex') ?? 0;
      const limit = p.int('limit');
      const items = list.slice(start, limit === undefined ? undefined : start + limit).map((e) => ({
        Id: e.id,
        Name: e.name,
        Overview: e.overview,
        Type: e.type,
        ItemId: e.itemId,
        Date: formatDate(e.dateMs),
        UserId: e.userId ?? (jf ? '00000000000000000000000000000000' : undefined),
        Severity: jf ? e.severity : 'Info',
      }));
      sendJson(c.res, 200, queryResult(items, list.length, start));
    }),
    route('GET', '/Devices', 'admin', (c) => {
      const userId = c.params.get('userId');
      let list = [...st.sessions.devices.values()];
      if (userId) list = list.filter((d) => d.lastUserId === normalizeId(userId));
      list.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
      const items = list.map((d) => {
        const user = d.lastUserId ? st.store.users.get(d.lastUserId) : undefined;
        const base = {
          Name: d.name,
          Id: d.deviceId,
          LastUserName: user?.name,
          AppName: d.appName,
          AppVersion: d.appVersion,
          LastUserId: d.lastUserId,
          DateLastActivity: formatDate(d.lastActivityMs),
          IconUrl: `${st.baseUrl}/web/assets/img/devices/${d.clientKey}.png`,
        };
        return jf
          ? {
              ...base,
              Capabilities: {
                PlayableMediaTypes: ['Audio', 'Video'],
                SupportedCommands: [],
                SupportsMediaControl: false,
                SupportsPersistentIdentifier: false,
              },
            }
          : {
              ...base,
              InternalId: d.internalId,
              ReportedDeviceId: d.deviceId,
              IpAddress: d.remoteEndPoint.includes(':') ? undefined : d.remoteEndPoint,
            };
      });
      sendJson(c.res, 200, queryResult(items, items.length, 0));
    }),
    route('GET', '/Plugins', 'admin', (c) => sendJson(c.res, 200, plugins())),
    route('POST', '/user_usage_stats/submit_custom_query', 'admin', async (c) => {
      if (!st.pluginEnabled) notFound();
      const body = await c.body();
      const sql = typeof body.CustomQueryString === 'string' ? body.CustomQueryString : '';
      sendJson(c.res, 200, st.reporting.customQuery(sql, body.ReplaceUserId === true, st.userNames()));
    }),
  ];
}
