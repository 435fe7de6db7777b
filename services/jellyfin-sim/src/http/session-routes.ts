/** Sessions and the playback reports clients send. */
import { sessionDto } from '../sessions/dto.js';
import { normalizeId } from '../wire.js';
import { sendEmpty, sendJson, type RequestContext } from './context.js';
import { HttpError } from './params.js';
import { route, type Route, remoteAddress } from './route.js';
import type { RouteKit } from './route-kit.js';

export function sessionRoutes(kit: RouteKit): Route[] {
  const { st, jf, flavor } = kit;
  const sessions = (ctx: RequestContext): void => {
    const p = ctx.params;
    const caller = ctx.caller;
    const now = st.clock.now();
    const active = jf ? p.int('activeWithinSeconds') : undefined;
    const deviceId = p.get('deviceId');
    const controllable = p.get('controllableByUserId');
    let list = [...st.sessions.sessions.values()];
    if (caller && !caller.isAdmin) list = list.filter((s) => !s.userId || s.userId === caller.user?.id);
    if (active !== undefined && active > 0) list = list.filter((s) => s.lastActivityMs >= now - active * 1000);
    if (deviceId) list = list.filter((s) => s.deviceId === deviceId);
    if (controllable) list = list.filter((s) => s.client.supportsRemoteControl);
    list.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
    const sctx = {
      flavor,
      serverId: st.serverId,
      store: st.store,
      callerIsAdmin: caller?.isAdmin ?? false,
      now,
      blurHashes: st.opts.blurHashes,
    };
    sendJson(
      ctx.res,
      200,
      list.map((s) => sessionDto(s, sctx)),
    );
  };

  const callerSession = (ctx: RequestContext) => {
    const caller = ctx.caller;
    if (!caller) throw new HttpError(401);
    const sid = st.tokenSessions.get(caller.token);
    let s = sid ? st.sessions.sessions.get(sid) : undefined;
    if (!s) {
      const h = ctx.header;
      if (!caller.user) throw new HttpError(400, 'Error processing request.');
      s = st.sessions.connect({
        userId: caller.user.id,
        client: h.client ?? 'Unknown',
        deviceId: h.deviceId ?? caller.token,
        deviceName: h.device,
        remoteEndPoint: remoteAddress(ctx),
      });
      st.tokenSessions.set(caller.token, s.id);
    }
    return s;
  };

  const clientReport =
    (kind: 'start' | 'progress' | 'stopped') =>
    async (ctx: RequestContext): Promise<void> => {
      const body = await ctx.body();
      if (kind === 'stopped' && typeof body.PositionTicks === 'number' && body.PositionTicks < 0)
        throw new HttpError(400, 'Error processing request.');
      const s = callerSession(ctx);
      if (typeof body.ItemId === 'string') body.ItemId = normalizeId(body.ItemId);
      try {
        st.sessions.clientReport(s, kind, body);
      } catch {
        throw new HttpError(400, 'Error processing request.');
      }
      sendEmpty(ctx.res, 204);
    };

  return [
    route('GET', '/Sessions', 'user', sessions),
    route('POST', '/Sessions/Playing', 'user', clientReport('start')),
    route('POST', '/Sessions/Playing/Progress', 'user', clientReport('progress')),
    route('POST', '/Sessions/Playing/Stopped', 'user', clientReport('stopped')),
  ];
}
