import { signInSettings } from '@reelstat/contract';
import { route } from '../http/api-routes.js';

const tag = 'auth';

/** The administrator's choices about who signs in and what viewers see (docs/security.md). */
export const signInSettingsRoutes = [
  route({
    method: 'get',
    path: '/api/signInSettings',
    tag,
    summary: 'Sign-in with media-server accounts (on/off, limited to some users) and whether viewers see the server-wide cards',
    access: 'admin',
    response: signInSettings,
    handle: async ({ runtime }) => ({
      MEDIA_SERVER_SIGN_IN: await runtime.services.settings.get('MEDIA_SERVER_SIGN_IN'),
      VIEWERS_SEE_SERVER_STATS: await runtime.services.settings.get('VIEWERS_SEE_SERVER_STATS'),
    }),
  }),
  route({
    method: 'post',
    path: '/api/signInSettings',
    tag,
    summary: 'Change the sign-in settings (both fields); answers the settings now in force',
    access: 'admin',
    body: signInSettings,
    response: signInSettings,
    handle: async ({ body, runtime }) => {
      const { settings } = runtime.services;
      await settings.set('MEDIA_SERVER_SIGN_IN', body.MEDIA_SERVER_SIGN_IN);
      await settings.set('VIEWERS_SEE_SERVER_STATS', body.VIEWERS_SEE_SERVER_STATS);
      return {
        MEDIA_SERVER_SIGN_IN: await settings.get('MEDIA_SERVER_SIGN_IN'),
        VIEWERS_SEE_SERVER_STATS: await settings.get('VIEWERS_SEE_SERVER_STATS'),
      };
    },
  }),
];
