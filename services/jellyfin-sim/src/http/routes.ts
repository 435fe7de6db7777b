/** The media-server REST surface (§3), for both flavors. */
import { itemDto, userDto, type DtoContext } from '../dto.js';
import { gradientPng, imageColors, imageTag, naturalSize, resolveSize } from '../images.js';
import type { SimItem, SimUser } from '../library/types.js';
import { parseItemQuery, parseKinds, type ItemQuery } from '../query.js';
import { clientByKey } from '../sessions/clients.js';
import { sessionDto } from '../sessions/dto.js';
import type { SimulatorState } from '../sim.js';
import { formatDate, normalizeId } from '../wire.js';
import { sendEmpty, sendJson, sendText, type RequestContext } from './context.js';
import { HttpError, type Params } from './params.js';

export type AuthLevel = 'anon' | 'user' | 'admin';

export interface Route {
  methods: string[];
  pattern: RegExp;
  auth: AuthLevel;
  flavors?: ('jellyfin' | 'emby')[];
  /** Paged list endpoint: subject to the slow-pages fault. */
  paged?: boolean;
  handle(ctx: RequestContext): Promise<void> | void;
}

const GUIDISH = '([^/]+)';

/** Common browser/OS device icon names a dashboard may ask for, besides the simulator's client keys. */
const DEVICE_ICON_NAMES = new Set([
  'android',
  'apple',
  'chrome',
  'edge',
  'edgechromium',
  'firefox',
  'html5',
  'kodi',
  'msedge',
  'opera',
  'other',
  'playstation',
  'roku',
  'safari',
  'samsungtv',
  'webos',
  'windows',
  'xbox',
]);

function route(methods: string | string[], path: string, auth: AuthLevel, handle: Route['handle'], extra: Partial<Route> = {}): Route {
  const pattern = new RegExp(`^${path.replace(/\{[a-zA-Z]+\}/g, GUIDISH)}$`, 'i');
  return { methods: Array.isArray(methods) ? methods : [methods], pattern, auth, handle, ...extra };
}

const notFound = (): never => {
  throw new HttpError(404);
};

export function buildRoutes(st: SimulatorState): Route[] {
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

  const userImage = (ctx: RequestContext, userRaw: string | undefined): void => {
    if (!userRaw) throw new HttpError(400, 'Error processing request.');
    const u = st.findUser(userRaw);
    if (!u || !u.hasImage) notFound();
    sendImage(ctx, `${(u as SimUser).id}|user|${(u as SimUser).imageRevision}`, naturalSize('Primary', 'user'));
  };

  const sendImage = (ctx: RequestContext, seed: string, natural: [number, number]): void => {
    const p = ctx.params;
    const [w, h] = resolveSize(natural, {
      width: p.int('width'),
      height: p.int('height'),
      maxWidth: p.int('maxWidth'),
      maxHeight: p.int('maxHeight'),
      fillWidth: p.int('fillWidth'),
      fillHeight: p.int('fillHeight'),
    });
    const png = gradientPng(seed, w, h);
    ctx.res.writeHead(200, {
      'Content-Type': 'image/png',
      'Content-Length': png.length,
      'Cache-Control': 'public',
      'Last-Modified': new Date(st.startedAtMs).toUTCString(),
    });
    ctx.res.end(ctx.method === 'HEAD' ? undefined : png);
  };

  const itemImage = (ctx: RequestContext): void => {
    const [rawId, rawType, rawIndex] = ctx.groups;
    const item = st.findItem(rawId as string);
    const type = (rawType ?? '').toLowerCase();
    const kind = item?.images.find((k) => k.toLowerCase() === type);
    if (!item || !kind) notFound();
    const index = rawIndex === undefined ? 0 : Number(rawIndex);
    if (!(index === 0)) notFound();
    sendImage(ctx, `${(item as SimItem).id}|${kind}|${(item as SimItem).revision}`, naturalSize(kind as string));
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

  const virtualFolders = (): Record<string, unknown>[] =>
    st.store.libraries
      .filter((l) => l.virtual)
      .map((l, i) => {
        const v: Record<string, unknown> = {
          Name: l.name,
          Locations: l.locations,
          // VirtualFolderInfo uses CollectionTypeOptions, which has "mixed"; BaseItemDto.CollectionType does not.
          CollectionType: l.collectionType,
          LibraryOptions: {
            Enabled: true,
            EnablePhotos: true,
            EnableRealtimeMonitor: true,
            EnableChapterImageExtraction: false,
            ExtractChapterImagesDuringLibraryScan: false,
            PathInfos: l.locations.map((path) => ({ Path: path })),
            SaveLocalMetadata: false,
            EnableInternetProviders: true,
            EnableAutomaticSeriesGrouping: false,
            EnableEmbeddedTitles: false,
            EnableEmbeddedEpisodeInfos: true,
            AutomaticRefreshIntervalDays: 0,
            PreferredMetadataLanguage: 'en',
            MetadataCountryCode: 'US',
            SeasonZeroDisplayName: 'Specials',
            TypeOptions: [],
          },
          ItemId: l.id,
          PrimaryImageItemId: l.id,
          RefreshStatus: 'Idle',
        };
        if (!jf) Object.assign(v, { Id: l.id, Guid: imageTag(l.id, 'guid', 0) });
        void i;
        return v;
      });

  const systemInfoPublic = (): Record<string, unknown> => {
    const base = { LocalAddress: st.baseUrl, ServerName: st.opts.serverName, Version: st.version, Id: st.serverId };
    if (jf) return { ...base, ProductName: st.productName, OperatingSystem: 'Linux', StartupWizardCompleted: true };
    return { ...base, LocalAddresses: [st.baseUrl], RemoteAddresses: [] };
  };

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

  const routes: Route[] = [
    route('GET', '/System/Info/Public', 'anon', (c) => sendJson(c.res, 200, systemInfoPublic())),
    route('GET', '/System/Info', 'user', (c) => {
      const info: Record<string, unknown> = {
        ...systemInfoPublic(),
        OperatingSystemDisplayName: 'Linux',
        PackageName: jf ? 'reelstat-sim' : undefined,
        HasPendingRestart: false,
        IsShuttingDown: false,
        SupportsLibraryMonitor: true,
        WebSocketPortNumber: Number(new URL(st.baseUrl).port || 80),
        CompletedInstallations: [],
        CanSelfRestart: true,
        CanLaunchWebBrowser: false,
        ProgramDataPath: '/config',
        ItemsByNamePath: '/config/metadata',
        CachePath: '/cache',
        LogPath: '/config/log',
        InternalMetadataPath: '/config/metadata',
        TranscodingTempPath: '/cache/transcodes',
        HasUpdateAvailable: false,
      };
      if (jf)
        Object.assign(info, {
          CastReceiverApplications: [],
          SystemArchitecture: 'X64',
          WebPath: '/usr/share/jellyfin/web',
          EncoderLocation: 'System',
        });
      else
        Object.assign(info, {
          HttpServerPortNumber: Number(new URL(st.baseUrl).port || 80),
          SupportsHttps: false,
          HttpsPortNumber: 8920,
          CanSelfUpdate: false,
          OperatingSystem: 'Linux',
          HasImageEnhancers: false,
          SupportsLocalPortConfiguration: true,
          SupportsWakeServer: false,
          SupportsAutoRunAtStartup: false,
          HardwareAccelerationRequiresPremiere: true,
          WakeOnLanInfo: [],
          SystemUpdateLevel: 'Release',
        });
      sendJson(c.res, 200, info);
    }),
    route(['GET', 'POST'], '/System/Ping', 'anon', (c) =>
      jf ? sendJson(c.res, 200, 'Jellyfin Server') : sendText(c.res, 200, 'Emby Server'),
    ),
    route('GET', '/System/Configuration', 'user', (c) => {
      const conf: Record<string, unknown> = {
        LogFileRetentionDays: 3,
        IsStartupWizardCompleted: true,
        EnableMetrics: false,
        EnableNormalizedItemByNameIds: true,
        IsPortAuthorized: true,
        QuickConnectAvailable: true,
        EnableCaseSensitiveItemIds: true,
        DisableLiveTvChannelUserDataName: true,
        MetadataPath: '/config/metadata',
        PreferredMetadataLanguage: 'en',
        MetadataCountryCode: 'US',
        SortReplaceCharacters: ['.', '+', '%'],
        SortRemoveCharacters: [',', '&', '-', '{', '}', "'"],
        SortRemoveWords: ['the', 'a', 'an'],
        MinResumePct: 5,
        MaxResumePct: 90,
        MinResumeDurationSeconds: 300,
        MinAudiobookResume: 5,
        MaxAudiobookResume: 5,
        InactiveSessionThreshold: 0,
        LibraryMonitorDelay: 60,
        LibraryUpdateDuration: 30,
        ImageSavingConvention: 'Legacy',
        ServerName: st.opts.serverName,
        UICulture: 'en-US',
        SaveMetadataHidden: false,
        RemoteClientBitrateLimit: 0,
        EnableFolderView: false,
        EnableGroupingMoviesIntoCollections: false,
        EnableGroupingShowsIntoCollections: false,
        DisplaySpecialsWithinSeasons: true,
        CodecsUsed: [],
        PluginRepositories: [],
        EnableExternalContentInSuggestions: true,
        ImageExtractionTimeoutMs: 0,
        PathSubstitutions: [],
        EnableSlowResponseWarning: true,
        SlowResponseThresholdMs: 500,
        CorsHosts: ['*'],
        ActivityLogRetentionDays: 30,
        LibraryScanFanoutConcurrency: 0,
        LibraryMetadataRefreshConcurrency: 0,
        AllowClientLogUpload: true,
        DummyChapterDuration: 0,
        ChapterImageResolution: 'MatchSource',
        ParallelImageEncodingLimit: 0,
        CastReceiverApplications: [],
        EnableLegacyAuthorization: st.opts.legacyAuth,
        ContentTypes: [],
        MetadataOptions: [],
      };
      if (!jf)
        for (const k of [
          'EnableLegacyAuthorization',
          'CastReceiverApplications',
          'ChapterImageResolution',
          'DummyChapterDuration',
          'ParallelImageEncodingLimit',
          'AllowClientLogUpload',
          'LibraryScanFanoutConcurrency',
          'LibraryMetadataRefreshConcurrency',
          'QuickConnectAvailable',
          'EnableMetrics',
          'ImageSavingConvention',
          'EnableCaseSensitiveItemIds',
          'DisableLiveTvChannelUserDataName',
          'EnableNormalizedItemByNameIds',
          'IsPortAuthorized',
          'MinAudiobookResume',
          'MaxAudiobookResume',
          'InactiveSessionThreshold',
          'LibraryUpdateDuration',
          'SortReplaceCharacters',
          'SortRemoveCharacters',
          'SortRemoveWords',
          'CorsHosts',
          'ActivityLogRetentionDays',
          'EnableSlowResponseWarning',
          'SlowResponseThresholdMs',
          'EnableExternalContentInSuggestions',
          'ImageExtractionTimeoutMs',
          'CodecsUsed',
          'PluginRepositories',
          'PathSubstitutions',
          'EnableGroupingMoviesIntoCollections',
          'EnableGroupingShowsIntoCollections',
          'DisplaySpecialsWithinSeasons',
          'EnableFolderView',
          'ContentTypes',
          'MetadataOptions',
          'SaveMetadataHidden',
          'LibraryMonitorDelay',
          'IsStartupWizardCompleted',
          'MetadataPath',
          'UICulture',
          'RemoteClientBitrateLimit',
          'LogFileRetentionDays',
        ])
          delete conf[k];
      sendJson(c.res, 200, conf);
    }),
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
    route('GET', '/Library/VirtualFolders', 'admin', (c) => sendJson(c.res, 200, virtualFolders()), { flavors: ['jellyfin'] }),
    route(
      'GET',
      '/Library/VirtualFolders/Query',
      'admin',
      (c) => {
        const all = virtualFolders();
        const start = c.params.int('startIndex') ?? 0;
        const limit = c.params.int('limit');
        sendJson(c.res, 200, { Items: all.slice(start, limit === undefined ? undefined : start + limit), TotalRecordCount: all.length });
      },
      { flavors: ['emby'] },
    ),
    route('GET', '/Library/MediaFolders', 'admin', (c) => {
      const folders = st.store.libraries.map((l) => st.store.get(l.id) as SimItem);
      const dctx = dtoCtx(c.params, undefined);
      sendJson(
        c.res,
        200,
        queryResult(
          folders.map((f) => itemDto(f, dctx)),
          folders.length,
          0,
        ),
      );
    }),
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
    route(['GET', 'HEAD'], '/Items/{itemId}/Images/{type}', 'anon', itemImage),
    route(['GET', 'HEAD'], '/Items/{itemId}/Images/{type}/{index}', 'anon', itemImage),
    route('GET', '/Items/{itemId}/ThemeSongs', 'user', (c) => themeMedia(c, 'themeSongIds')),
    route('GET', '/Items/{itemId}/ThemeVideos', 'user', (c) => themeMedia(c, 'themeVideoIds')),
    route('GET', '/Items/{itemId}/LocalTrailers', 'user', (c) => extrasArray(c, c.groups[0] as string)),
    route('GET', '/Users/{userId}/Items/{itemId}/LocalTrailers', 'user', (c) => extrasArray(c, c.groups[1] as string)),
    route('GET', '/Items/{itemId}', 'user', (c) => getItem(c, c.params.get('userId'), c.groups[0] as string), { flavors: ['jellyfin'] }),
    route('GET', '/Users/{userId}/Items/{itemId}', 'user', (c) => getItem(c, c.groups[0], c.groups[1] as string)),
    route('GET', '/Shows/{seriesId}/Seasons', 'user', seasons),
    route('GET', '/Shows/{seriesId}/Episodes', 'user', episodes, { paged: true }),
    route('GET', '/Sessions', 'user', sessions),
    route('POST', '/Sessions/Playing', 'user', clientReport('start')),
    route('POST', '/Sessions/Playing/Progress', 'user', clientReport('progress')),
    route('POST', '/Sessions/Playing/Stopped', 'user', clientReport('stopped')),
    route(['GET', 'HEAD'], '/UserImage', 'anon', (c) => userImage(c, c.params.get('userId')), { flavors: ['jellyfin'] }),
    route(['GET', 'HEAD'], '/Users/{userId}/Images/{type}', 'anon', (c) => userImage(c, c.groups[0])),
    route(['GET', 'HEAD'], '/Users/{userId}/Images/{type}/{index}', 'anon', (c) => userImage(c, c.groups[0])),
    route(['GET', 'HEAD'], '/web/assets/img/devices/{name}', 'anon', (c) => {
      const file = (c.groups[0] as string).toLowerCase();
      const key = file.replace(/\.(png|svg)$/, '');
      if (!clientByKey(key) && !DEVICE_ICON_NAMES.has(key)) notFound();
      if (file.endsWith('.svg')) {
        const [[r, g, b]] = imageColors(`device|${key}`);
        const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="24" fill="rgb(${r},${g},${b})"/></svg>`;
        c.res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Content-Length': Buffer.byteLength(svg), 'Cache-Control': 'public' });
        c.res.end(c.method === 'HEAD' ? undefined : svg);
        return;
      }
      sendImage(c, `device|${key}`, naturalSize('Primary', 'icon'));
    }),
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

  return routes.filter((r) => !r.flavors || r.flavors.includes(flavor));
}

export function remoteAddress(ctx: RequestContext): string {
  const a = ctx.req.socket.remoteAddress ?? '127.0.0.1';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

export { formatDate };
