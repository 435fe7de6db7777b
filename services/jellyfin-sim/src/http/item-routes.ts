/** Items: views, latest, resume, counts, queries, details, extras, seasons and episodes. */
import { itemDto } from '../dto.js';
import type { SimItem, SimUser } from '../library/types.js';
import { parseItemQuery, parseKinds, type ItemQuery } from '../query.js';
import { normalizeId } from '../wire.js';
import { sendJson, type RequestContext } from './context.js';
import { HttpError } from './params.js';
import { route, type Route, notFound } from './route.js';
import type { RouteKit } from './route-kit.js';

export function itemRoutes(kit: RouteKit): Route[] {
  const { st, resolveUser, dtoCtx, queryResult, page, views } = kit;
  const getItems = (ctx: RequestContext, userRaw: string | undefined): void => {
    const p = ctx.params;
    const user = resolveUser(ctx, userRaw);
    if (!user && ctx.caller?.kind !== 'apikey') throw new HttpError(400, 'userId is required');
    const q = parseItemQuery(p, user);
    if (q.parentId && user) {
      const parent = st.store.get(q.parentId);
      // ItemsController.GetItems: a folder the user may not see answers 401 with a message.
      if (parent && !st.engine.isVisible(parent, user)) throw new HttpError(401, 'Error processing request.');
    }
    if (!q.parentId && !q.recursive && !q.ids.length && user) {
      // With no parentId and a user: the user's root views, unpaged.
      const v = views(user);
      const ctxDto = dtoCtx(p, user);
      sendJson(
        ctx.res,
        200,
        queryResult(
          v.map((i) => itemDto(i, ctxDto)),
          v.length,
          p.int('startIndex') ?? 0,
        ),
      );
      return;
    }
    sendJson(ctx.res, 200, page(st.engine.run(q), p, user));
  };

  const getItem = (ctx: RequestContext, userRaw: string | undefined, itemRaw: string): void => {
    const user = resolveUser(ctx, userRaw);
    const item = st.findItem(itemRaw);
    if (!item || !st.engine.isVisible(item, user)) notFound();
    sendJson(ctx.res, 200, itemDto(item as SimItem, dtoCtx(ctx.params, user, true)));
  };

  const latest = (ctx: RequestContext, userRaw: string | undefined): void => {
    const p = ctx.params;
    const user = resolveUser(ctx, userRaw);
    if (!user) notFound();
    const u = user as SimUser;
    const limit = p.int('limit') ?? 20;
    const group = p.bool('groupItems') ?? true;
    const kinds = parseKinds(p.list('includeItemTypes'));
    const base: ItemQuery = {
      ...parseItemQuery(p, u),
      recursive: true,
      includeKinds: kinds.length ? kinds : ['Movie', 'Episode', 'Audio', 'MusicVideo', 'Video'],
      isFolder: false,
      sortBy: ['DateCreated'],
      sortOrder: ['Descending'],
    };
    const ids = st.engine.run(base);
    // UserViewManager.GetLatestItems: episodes group under their series and tracks under their album; a group
    // of one is returned as the item itself, larger groups as the container with ChildCount = group size.
    const entries: { key: string; first: SimItem; parent?: SimItem; count: number }[] = [];
    const byKey = new Map<string, { key: string; first: SimItem; parent?: SimItem; count: number }>();
    for (const id of ids) {
      const it = st.store.get(id) as SimItem;
      if (it.extraType) continue;
      const parentId = group ? (it.kind === 'Episode' ? it.seriesId : it.kind === 'Audio' ? it.albumId : undefined) : undefined;
      const parent = parentId ? st.store.get(parentId) : undefined;
      const key = parent ? parent.id : it.id;
      const existing = byKey.get(key);
      if (existing) {
        existing.count++;
        continue;
      }
      if (entries.length >= limit) break;
      const entry = { key, first: it, parent, count: 1 };
      entries.push(entry);
      byKey.set(key, entry);
    }
    const dctx = dtoCtx(p, u);
    sendJson(
      ctx.res,
      200,
      entries.map((e) => {
        if (e.parent && e.count > 1) return { ...itemDto(e.parent, dctx), ChildCount: e.count };
        return itemDto(e.first, dctx);
      }),
    );
  };

  const userViews = (ctx: RequestContext, userRaw: string | undefined): void => {
    const user = resolveUser(ctx, userRaw);
    if (!user) throw new HttpError(400, 'userId is required');
    const v = views(user);
    const dctx = dtoCtx(ctx.params, user);
    sendJson(
      ctx.res,
      200,
      queryResult(
        v.map((i) => itemDto(i, dctx)),
        v.length,
        0,
      ),
    );
  };

  const resume = (ctx: RequestContext, userRaw: string | undefined): void => {
    const user = resolveUser(ctx, userRaw);
    if (!user) throw new HttpError(400, 'userId is required');
    const q: ItemQuery = {
      ...parseItemQuery(ctx.params, user),
      recursive: true,
      isResumable: true,
      sortBy: ['DatePlayed'],
      sortOrder: ['Descending'],
    };
    if (!q.includeKinds.length) q.includeKinds = ['Movie', 'Episode', 'Video', 'Audio'];
    sendJson(ctx.res, 200, page(st.engine.run(q), ctx.params, user));
  };

  const seasons = (ctx: RequestContext): void => {
    const series = st.findItem(ctx.groups[0] as string);
    if (!series || series.kind !== 'Series') throw new HttpError(404, 'Error processing request.');
    const user = resolveUser(ctx, ctx.params.get('userId'));
    let ids = [...st.store.childIds(series.id)].filter((id) => st.store.get(id)?.kind === 'Season');
    const special = ctx.params.bool('isSpecialSeason');
    if (special !== undefined) ids = ids.filter((id) => (st.store.get(id)?.indexNumber === 0) === special);
    const dctx = dtoCtx(ctx.params, user);
    sendJson(
      ctx.res,
      200,
      queryResult(
        ids.map((id) => itemDto(st.store.get(id) as SimItem, dctx)),
        ids.length,
        0,
      ),
    );
  };

  const episodes = (ctx: RequestContext): void => {
    const p = ctx.params;
    const series = st.findItem(ctx.groups[0] as string);
    if (!series || series.kind !== 'Series') throw new HttpError(404, 'Error processing request.');
    const user = resolveUser(ctx, p.get('userId'));
    let ids = st.store.descendants(series.id).filter((id) => st.store.get(id)?.kind === 'Episode');
    const seasonId = p.get('seasonId');
    const seasonNo = p.int('season');
    if (seasonId) {
      const sid = normalizeId(seasonId);
      if (!st.store.get(sid)) throw new HttpError(404, 'Error processing request.');
      ids = ids.filter((id) => st.store.get(id)?.seasonId === sid);
    } else if (seasonNo !== undefined) ids = ids.filter((id) => st.store.get(id)?.parentIndexNumber === seasonNo);
    const start = p.get('startItemId');
    if (start) {
      const i = ids.indexOf(normalizeId(start));
      if (i >= 0) ids = ids.slice(i);
    }
    const sortBy = p.list('sortBy');
    if (sortBy.length) ids = st.engine.run({ ...parseItemQuery(p, user), ids, parentId: undefined, recursive: true });
    sendJson(ctx.res, 200, page(ids, p, user));
  };

  return [
    route('GET', '/UserViews', 'user', (c) => userViews(c, c.params.get('userId')), { flavors: ['jellyfin'] }),
    route('GET', '/Users/{userId}/Views', 'user', (c) => userViews(c, c.groups[0])),
    route('GET', '/Items/Latest', 'user', (c) => latest(c, c.params.get('userId')), { flavors: ['jellyfin'] }),
    route('GET', '/Users/{userId}/Items/Latest', 'user', (c) => latest(c, c.groups[0])),
    route('GET', '/UserItems/Resume', 'user', (c) => resume(c, c.params.get('userId')), { flavors: ['jellyfin'], paged: true }),
    route('GET', '/Users/{userId}/Items/Resume', 'user', (c) => resume(c, c.groups[0]), { paged: true }),
    route('GET', '/Items/Counts', 'user', (c) => {
      const user = resolveUser(c, c.params.get('userId'));
      const count = (k: string): number => st.engine.run({ ...parseItemQuery(c.params, user), recursive: true, includeKinds: [k] }).length;
      const counts = {
        MovieCount: count('Movie'),
        SeriesCount: count('Series'),
        EpisodeCount: count('Episode'),
        ArtistCount: count('MusicArtist'),
        ProgramCount: 0,
        TrailerCount: 0,
        SongCount: count('Audio'),
        AlbumCount: count('MusicAlbum'),
        MusicVideoCount: 0,
        BoxSetCount: count('BoxSet'),
        BookCount: 0,
      };
      sendJson(c.res, 200, { ...counts, ItemCount: Object.values(counts).reduce((a, b) => a + b, 0) });
    }),
    route('GET', '/Items', 'user', (c) => getItems(c, c.params.get('userId')), { paged: true }),
    route('GET', '/Users/{userId}/Items', 'user', (c) => getItems(c, c.groups[0]), { paged: true }),
    route('GET', '/Items/{itemId}/ThemeSongs', 'user', (c) => themeMedia(c, 'themeSongIds')),
    route('GET', '/Items/{itemId}/ThemeVideos', 'user', (c) => themeMedia(c, 'themeVideoIds')),
    route('GET', '/Items/{itemId}/LocalTrailers', 'user', (c) => extrasArray(c, c.groups[0] as string)),
    route('GET', '/Users/{userId}/Items/{itemId}/LocalTrailers', 'user', (c) => extrasArray(c, c.groups[1] as string)),
    route('GET', '/Items/{itemId}', 'user', (c) => getItem(c, c.params.get('userId'), c.groups[0] as string), { flavors: ['jellyfin'] }),
    route('GET', '/Users/{userId}/Items/{itemId}', 'user', (c) => getItem(c, c.groups[0], c.groups[1] as string)),
    route('GET', '/Shows/{seriesId}/Seasons', 'user', seasons),
    route('GET', '/Shows/{seriesId}/Episodes', 'user', episodes, { paged: true }),
  ];

  function themeMedia(c: RequestContext, key: 'themeSongIds' | 'themeVideoIds'): void {
    const item = st.findItem(c.groups[0] as string);
    if (!item) notFound();
    const it = item as SimItem;
    const ids = it[key] ?? [];
    const dctx = dtoCtx(c.params, resolveUser(c, c.params.get('userId')), false);
    sendJson(c.res, 200, {
      Items: ids.map((id) => itemDto(st.store.get(id) as SimItem, dctx)),
      TotalRecordCount: ids.length,
      StartIndex: 0,
      OwnerId: it.id,
    });
  }

  function extrasArray(c: RequestContext, rawId: string): void {
    const item = st.findItem(rawId);
    if (!item) notFound();
    const dctx = dtoCtx(c.params, c.caller?.user, true);
    sendJson(
      c.res,
      200,
      ((item as SimItem).localTrailerIds ?? []).map((id) => itemDto(st.store.get(id) as SimItem, dctx)),
    );
  }
}
