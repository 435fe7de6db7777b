/** Sign-in and sign-out, and the users. */
import { userDto } from '../dto.js';
import { sessionDto } from '../sessions/dto.js';
import { sendEmpty, sendJson, sendText } from './context.js';
import { HttpError } from './params.js';
import { route, type Route, remoteAddress } from './route.js';
import type { RouteKit } from './route-kit.js';

export function userRoutes(kit: RouteKit): Route[] {
  const { st, jf, flavor, userCtx } = kit;

  return [
    route('POST', '/Users/AuthenticateByName', 'anon', async (c) => {
      const body = await c.body();
      const h = c.header;
      if (!h.client || !h.deviceId || !h.version) throw new HttpError(400, 'Error processing request.');
      const name = String(body.Username ?? '');
      const pw = String(body.Pw ?? body.Password ?? '');
      const user = [...st.store.users.values()].find((u) => u.name.toLowerCase() === name.toLowerCase());
      if (!user || user.isDisabled || user.password !== pw) throw new HttpError(401, 'Error processing request.');
      const { token, sessionId } = st.login(user, h.client, h.deviceId, h.device, remoteAddress(c));
      const s = st.sessions.sessions.get(sessionId);
      sendJson(c.res, 200, {
        User: userDto(user, userCtx()),
        SessionInfo: s
          ? sessionDto(s, {
              flavor,
              serverId: st.serverId,
              store: st.store,
              callerIsAdmin: user.isAdministrator,
              now: st.clock.now(),
              blurHashes: st.opts.blurHashes,
            })
          : undefined,
        AccessToken: token,
        ServerId: st.serverId,
      });
    }),
    route('POST', '/Sessions/Logout', 'user', (c) => {
      const token = c.caller?.token ?? '';
      const sid = st.tokenSessions.get(token);
      if (sid) st.sessions.removeSession(sid, 'vanished');
      st.tokens.delete(token);
      st.tokenSessions.delete(token);
      sendEmpty(c.res, 204);
    }),
    route(
      'GET',
      '/Users',
      'user',
      (c) => {
        const p = c.params;
        const hidden = p.bool('isHidden');
        const disabled = p.bool('isDisabled');
        let users = [...st.store.users.values()];
        if (c.caller?.kind === 'user' && !c.caller.isAdmin) users = users.filter((u) => u.id === c.caller?.user?.id);
        if (hidden !== undefined) users = users.filter((u) => u.isHidden === hidden);
        if (disabled !== undefined) users = users.filter((u) => u.isDisabled === disabled);
        users.sort((a, b) => a.name.localeCompare(b.name));
        sendJson(
          c.res,
          200,
          users.map((u) => userDto(u, userCtx())),
        );
      },
      { flavors: ['jellyfin'] },
    ),
    route(
      'GET',
      '/Users/Query',
      'user',
      (c) => {
        const p = c.params;
        let users = [...st.store.users.values()].sort((a, b) => a.name.localeCompare(b.name));
        const hidden = p.bool('isHidden');
        const disabled = p.bool('isDisabled');
        if (hidden !== undefined) users = users.filter((u) => u.isHidden === hidden);
        if (disabled !== undefined) users = users.filter((u) => u.isDisabled === disabled);
        const start = p.int('startIndex') ?? 0;
        const limit = p.int('limit');
        const slice = users.slice(start, limit === undefined ? undefined : start + limit);
        sendJson(c.res, 200, { Items: slice.map((u) => userDto(u, userCtx())), TotalRecordCount: users.length });
      },
      { flavors: ['emby'] },
    ),
    route('GET', '/Users/Public', 'anon', (c) => {
      const users = [...st.store.users.values()].filter((u) => !u.isHidden && !u.isDisabled).sort((a, b) => a.name.localeCompare(b.name));
      sendJson(
        c.res,
        200,
        users.map((u) => userDto(u, userCtx())),
      );
    }),
    route('GET', '/Users/Me', 'user', (c) => {
      if (!jf) {
        sendText(c.res, 500, 'Unrecognized Guid format.');
        return;
      }
      if (!c.caller?.user) throw new HttpError(400);
      sendJson(c.res, 200, userDto(c.caller.user, userCtx()));
    }),
    route('GET', '/Users/{userId}', 'user', (c) => {
      const u = st.findUser(c.groups[0] as string);
      if (!u) throw new HttpError(404, 'Error processing request.');
      sendJson(c.res, 200, userDto(u, userCtx()));
    }),
  ];
}
