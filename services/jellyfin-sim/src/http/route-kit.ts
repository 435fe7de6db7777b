/** What several controllers of the simulated REST surface need: the flavor, users, DTO contexts, paging. */
import { itemDto, type DtoContext } from '../dto.js';
import type { SimItem, SimUser } from '../library/types.js';
import type { SimulatorState } from '../sim.js';
import { normalizeId } from '../wire.js';
import type { RequestContext } from './context.js';
import { HttpError, type Params } from './params.js';

export function createRouteKit(st: SimulatorState) {
  const jf = st.opts.flavor === 'jellyfin';
  const flavor = st.opts.flavor;

  const userCtx = () => ({
    flavor,
    serverId: st.serverId,
    serverName: st.opts.serverName,
    libraryOrder: st.store.libraries.map((l) => l.id),
  });

  /** RequestHelpers.GetUserId: a non-admin may only name themselves. */
  const resolveUser = (ctx: RequestContext, raw: string | undefined): SimUser | undefined => {
    const caller = ctx.caller;
    if (raw) {
      const id = normalizeId(raw);
      if (caller?.kind === 'user' && !caller.isAdmin && caller.user?.id !== id) throw new HttpError(403, 'Error processing request.');
      const u = st.store.users.get(id);
      if (!u) throw new HttpError(404, 'Error processing request.');
      return u;
    }
    return caller?.user;
  };

  const dtoCtx = (p: Params, user: SimUser | undefined, all = false): DtoContext => ({
    flavor,
    serverId: st.serverId,
    store: st.store,
    fields: new Set(p.list('fields').map((f) => f.toLowerCase())),
    allFields: all,
    user,
    enableUserData: p.bool('enableUserData') ?? true,
    enableImages: p.bool('enableImages') ?? true,
    blurHashes: st.opts.blurHashes,
    imageTypeLimit: p.int('imageTypeLimit'),
  });

  const queryResult = (items: unknown[], total: number, startIndex: number): Record<string, unknown> =>
    jf ? { Items: items, TotalRecordCount: total, StartIndex: startIndex } : { Items: items, TotalRecordCount: total };

  const page = (ids: string[], p: Params, user: SimUser | undefined): Record<string, unknown> => {
    const start = Math.max(0, p.int('startIndex') ?? 0);
    const limit = p.int('limit');
    const slice = ids.slice(start, limit === undefined ? undefined : start + Math.max(0, limit));
    const ctx = dtoCtx(p, user);
    const items = slice.map((id) => itemDto(st.store.get(id) as SimItem, ctx));
    const total = (p.bool('enableTotalRecordCount') ?? true) ? ids.length : items.length;
    return queryResult(items, total, start);
  };

  const views = (user: SimUser | undefined): SimItem[] => {
    const visible = st.engine.visibleLibraries(user);
    return st.store.libraries
      .filter((l) => visible.has(l.id))
      .map((l) => st.store.get(l.id) as SimItem)
      .filter(Boolean);
  };

  return { st, jf, flavor, userCtx, resolveUser, dtoCtx, queryResult, page, views };
}

export type RouteKit = ReturnType<typeof createRouteKit>;
