import { AppError, endSession, listUntrackedUsers, toggleUntrackedUser, type Runtime } from '@reelstat/core';
import {
  activityMonitorSettingsAnswer,
  activityMonitorSettingsBody,
  endSessionAnswer,
  endSessionBody,
  setActivityMonitorSettingsAnswer,
  setUntrackedUsersBody,
  untrackedUsersAnswer,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';

/** The server named by serverId (checked to exist by the route layer), else the default one. */
async function scopedServerId(runtime: Runtime, serverId: string | undefined): Promise<string> {
  if (serverId) return serverId;
  const link = await runtime.services.mediaServers.getDefault();
  if (!link) throw AppError.conflict('No media server is linked yet');
  return link.id;
}

async function currentSettings(runtime: Runtime) {
  const [intervals, rules] = await Promise.all([
    runtime.services.settings.get('ACTIVITY_MONITOR_INTERVALS'),
    runtime.services.settings.get('ACTIVITY_RECORDING_RULES'),
  ]);
  return { ...intervals, ...rules };
}

export const activityRoutes = [
  route({
    method: 'get',
    path: '/api/getActivityMonitorSettings',
    tag: 'activity',
    summary: 'Activity monitor polling intervals (ms) and recording rules',
    access: 'admin',
    response: activityMonitorSettingsAnswer,
    handle: async ({ runtime }) => currentSettings(runtime),
  }),
  route({
    method: 'post',
    path: '/api/setActivityMonitorSettings',
    tag: 'activity',
    summary: 'Change the activity monitor intervals (active 500–10000 ms step 100, idle 1000–30000 ms step 1000); applied at the next poll',
    access: 'admin',
    body: activityMonitorSettingsBody,
    response: setActivityMonitorSettingsAnswer,
    handle: async ({ body, runtime }) => {
      const { settings } = runtime.services;
      await settings.set('ACTIVITY_MONITOR_INTERVALS', {
        activeSessionsInterval: body.activeSessionsInterval,
        idleInterval: body.idleInterval,
      });
      if (body.minimumPlaySeconds !== undefined || body.mergeWindowMinutes !== undefined) {
        const rules = await settings.get('ACTIVITY_RECORDING_RULES');
        await settings.set('ACTIVITY_RECORDING_RULES', {
          minimumPlaySeconds: body.minimumPlaySeconds ?? rules.minimumPlaySeconds,
          mergeWindowMinutes: body.mergeWindowMinutes ?? rules.mergeWindowMinutes,
        });
      }
      return { message: 'Activity monitor settings applied in real time', ...(await currentSettings(runtime)) };
    },
  }),
  route({
    method: 'get',
    path: '/api/UntrackedUsers',
    tag: 'activity',
    summary: 'Ids of the users whose plays are not recorded',
    access: 'admin',
    servers: 'one',
    response: untrackedUsersAnswer,
    handle: async ({ runtime, serverId }) => listUntrackedUsers(runtime.db, await scopedServerId(runtime, serverId)),
  }),
  route({
    method: 'post',
    path: '/api/setUntrackedUsers',
    tag: 'activity',
    summary: 'Toggle whether a user is tracked; answers the updated untracked list',
    access: 'admin',
    servers: 'one',
    body: setUntrackedUsersBody,
    response: untrackedUsersAnswer,
    handle: async ({ body, runtime, serverId }) => toggleUntrackedUser(runtime.db, await scopedServerId(runtime, serverId), body.userId),
  }),
  route({
    method: 'post',
    path: '/api/endSession',
    tag: 'activity',
    summary:
      "End a live session: the message (if any) is shown on the viewer's client, then playback stops (the media server's " +
      'Sessions/{id}/Message and Sessions/{id}/Playing/Stop); 404 when the session is gone, 502/503 when the media server fails',
    // Stopping someone's playback is an administrator's action.
    access: 'admin',
    servers: 'one',
    body: endSessionBody,
    response: endSessionAnswer,
    handle: ({ body, runtime, serverId }) =>
      endSession(
        runtime.services.mediaServers,
        { serverId, sessionId: body.sessionId, message: body.message || undefined },
        runtime.logger,
      ),
  }),
];
