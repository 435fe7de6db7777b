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

  /** The session a remote command names (Jellyfin answers 404 for an unknown one). */
  const namedSession = (ctx: RequestContext): string => {
    const match = /\/Sessions\/([^/]+)\//i.exec(ctx.path);
    const id = match ? decodeURIComponent(match[1]!).toLowerCase() : '';
    if (!st.sessions.sessions.has(id)) throw new HttpError(404, 'Error processing request.');
    return id;
  };

  /** POST /Sessions/{id}/Playing/{command}: Stop, Pause and Unpause act on the play; the other commands are accepted and ignored. */
  const playstate = (ctx: RequestContext): void => {
    const id = namedSession(ctx);
    const command = /\/Playing\/([^/]+)$/i.exec(ctx.path)?.[1] ?? '';
    const known = ['Stop', 'Pause', 'Unpause', 'NextTrack', 'PreviousTrack', 'Seek', 'Rewind', 'FastForward', 'PlayPause'];
    const named = known.find((k) => k.toLowerCase() === command.toLowerCase());
    if (!named) throw new HttpError(400, 'Error processing request.');
    if (named === 'Stop' || named === 'Pause' || named === 'Unpause') st.sessions.remoteCommand(id, named);
    sendEmpty(ctx.res, 204);
  };

  /** POST /Sessions/{id}/Message: Jellyfin takes a JSON MessageCommand, Emby the Text, Header and TimeoutMs query parameters. */
  const message = async (ctx: RequestContext): Promise<void> => {
    const id = namedSession(ctx);
    const source: Record<string, unknown> = jf
      ? await ctx.body()
      : { Text: ctx.params.get('Text'), Header: ctx.params.get('Header'), TimeoutMs: ctx.params.int('TimeoutMs') };
    const text = source.Text;
    if (typeof text !== 'string' || text === '') throw new HttpError(400, 'Error processing request.');
    const timeout = source.TimeoutMs;
    st.sessions.sendMessage(id, {
      header: typeof source.Header === 'string' ? source.Header : '',
      text,
      ...(typeof timeout === 'number' ? { timeoutMs: timeout } : {}),
    });
    sendEmpty(ctx.res, 204);
  };

  return [
    route('GET', '/Sessions', 'user', sessions),
    route('POST', '/Sessions/{id}/Playing/{command}', 'admin', playstate),
    route('POST', '/Sessions/{id}/Message', 'admin', message),
    route('POST', '/Sessions/Playing', 'user', clientReport('start')),
    route('POST', '/Sessions/Playing/Progress', 'user', clientReport('progress')),
    route('POST', '/Sessions/Playing/Stopped', 'user', clientReport('stopped')),
  ];
}
