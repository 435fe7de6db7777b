/** The control API: what tests (in-process) and the HTTP /__control routes use to script the simulator. */
import type { SimHttpServer } from './http/server.js';
import type { RequestContext } from './http/context.js';
import { sendJson } from './http/context.js';
import type { FaultSettings } from './faults.js';
import type { ItemKind, SimItem, SimUser } from './library/types.js';
import type { ConnectOptions, SessionMessage, StartPlayOptions } from './sessions/manager.js';
import type { PlayRecord } from './sessions/types.js';
import type { ItemInput, ItemPatch, SimCounts, SimulatorState, UserInput } from './sim.js';
import type { Traffic, TrafficLevel } from './traffic.js';
import { normalizeId } from './wire.js';

export interface SessionSummary {
  sessionId: string;
  userId?: string;
  client: string;
  deviceId: string;
  deviceName: string;
  remoteEndPoint: string;
  nowPlayingItemId?: string;
  playId?: string;
}

export type UserPatch = Partial<
  Pick<SimUser, 'name' | 'password' | 'isAdministrator' | 'isHidden' | 'isDisabled' | 'hasImage' | 'enableAllFolders' | 'enabledFolders'>
>;

export interface SimulatorControl {
  readonly clock: { now(): number; advance(ms: number): number; readonly mode: 'virtual' | 'real' };
  /** Same as clock.advance. */
  advance(ms: number): number;
  counts(): SimCounts;
  // sessions and plays
  connect(opts?: ConnectOptions): SessionSummary;
  disconnect(sessionId: string): boolean;
  sessions(): SessionSummary[];
  /** Messages administrators sent to sessions (POST /Sessions/{id}/Message), oldest first. */
  messages(): SessionMessage[];
  startPlay(opts: StartPlayOptions): PlayRecord;
  pause(playId: string): PlayRecord;
  resume(playId: string): PlayRecord;
  seek(playId: string, positionTicks: number): PlayRecord;
  stop(playId: string): PlayRecord;
  nextEpisode(playId: string): PlayRecord;
  /** Client disappears; keepSession=true: it just goes quiet and the server auto-stops it after 5 min. */
  vanish(playId: string, opts?: { keepSession?: boolean }): PlayRecord;
  activePlays(): PlayRecord[];
  groundTruth(): PlayRecord[];
  play(playId: string): PlayRecord | undefined;
  // library and users
  item(id: string): SimItem | undefined;
  itemIds(type: ItemKind, limit?: number): string[];
  addItem(input: ItemInput): SimItem;
  updateItem(id: string, patch: ItemPatch): SimItem;
  deleteItem(id: string): string[];
  users(): SimUser[];
  addUser(input: UserInput): SimUser;
  updateUser(id: string, patch: UserPatch): SimUser;
  deleteUser(id: string): boolean;
  /** Logs a user in without HTTP; returns an access token and the login session id. */
  userToken(userId: string, client?: string, deviceId?: string): { accessToken: string; sessionId: string };
  // faults and server
  faults(): FaultSettings;
  setFaults(patch: Partial<FaultSettings>): Promise<FaultSettings>;
  clearFaults(): Promise<FaultSettings>;
  setPluginEnabled(enabled: boolean): void;
  /** Media-server restart: sessions dropped (plays end with 'server-restart'); optionally down for downMs real ms. */
  restartServer(opts?: { downMs?: number; mode?: 'refused' | '503' }): Promise<void>;
  setTraffic(level: TrafficLevel): void;
}

export function createControl(st: SimulatorState, http: SimHttpServer, traffic: Traffic, host: string): SimulatorControl {
  const sm = st.sessions;
  const summary = (id: string): SessionSummary => {
    const s = sm.sessions.get(id);
    if (!s) throw new Error(`no session ${id}`);
    return {
      sessionId: s.id,
      userId: s.userId,
      client: s.client.client,
      deviceId: s.deviceId,
      deviceName: s.deviceName,
      remoteEndPoint: s.remoteEndPoint,
      nowPlayingItemId: s.play?.itemId,
      playId: s.play?.record.playId,
    };
  };
  const truth = (playId: string): PlayRecord => {
    const r = sm.play(playId);
    if (!r) throw new Error(`no play ${playId}`);
    return r;
  };
  const applyDown = async (down: FaultSettings['down']): Promise<void> => {
    if (down === 'refused' && http.isListening()) await http.close();
    if (down !== 'refused' && !http.isListening()) await http.listen(http.port, host);
  };
  const control: SimulatorControl = {
    clock: {
      now: () => st.clock.now(),
      advance: (ms: number) => st.clock.advance(ms),
      get mode() {
        return st.clock.mode;
      },
    },
    advance: (ms) => st.clock.advance(ms),
    counts: () => st.counts(),
    connect: (opts = {}) => summary(sm.connect({ ...opts, userId: opts.userId ? normalizeId(opts.userId) : undefined }).id),
    disconnect: (id) => sm.removeSession(id, 'vanished'),
    sessions: () => [...sm.sessions.keys()].map(summary),
    messages: () => [...sm.messages],
    startPlay: (opts) => {
      const rec = sm.start({ ...opts, itemId: normalizeId(opts.itemId), userId: opts.userId ? normalizeId(opts.userId) : undefined });
      return truth(rec.playId);
    },
    pause: (id) => (sm.pause(id), truth(id)),
    resume: (id) => (sm.resume(id), truth(id)),
    seek: (id, pos) => (sm.seek(id, pos), truth(id)),
    stop: (id) => (sm.stop(id), truth(id)),
    nextEpisode: (id) => truth(sm.next(id).playId),
    vanish: (id, opts = {}) => (sm.vanish(id, opts.keepSession ?? false), truth(id)),
    activePlays: () => sm.groundTruth().filter((p) => p.active),
    groundTruth: () => sm.groundTruth(),
    play: (id) => sm.play(id),
    item: (id) => st.findItem(id),
    itemIds: (type, limit) => [...(st.store.byKind.get(type) ?? [])].slice(0, limit),
    addItem: (input) => st.addItem(input),
    updateItem: (id, patch) => st.updateItem(id, patch),
    deleteItem: (id) => st.deleteItem(id),
    users: () => [...st.store.users.values()],
    addUser: (input) => st.addUser(input),
    updateUser: (id, patch) => st.updateUser(id, patch),
    deleteUser: (id) => st.deleteUser(id),
    userToken: (userId, client = 'Jellyfin Web', deviceId) => {
      const u = st.findUser(userId);
      if (!u) throw new Error(`no user ${userId}`);
      const r = st.login(u, client, deviceId ?? `device-${u.id.slice(0, 8)}-${st.tokens.size}`, undefined, '127.0.0.1');
      return { accessToken: r.token, sessionId: r.sessionId };
    },
    faults: () => ({ ...st.faults.settings }),
    setFaults: async (patch) => {
      st.faults.settings = { ...st.faults.settings, ...patch };
      await applyDown(st.faults.settings.down);
      return { ...st.faults.settings };
    },
    clearFaults: async () => control.setFaults({ latencyMs: 0, errorRate: 0, down: false, slowPagesMs: 0 }),
    setPluginEnabled: (enabled) => {
      st.pluginEnabled = enabled;
    },
    restartServer: async (opts = {}) => {
      sm.restart();
      st.tokenSessions.clear();
      st.startedAtMs = st.clock.now();
      if (opts.downMs && opts.downMs > 0) {
        const before = st.faults.settings.down;
        await control.setFaults({ down: opts.mode ?? 'refused' });
        await new Promise((r) => setTimeout(r, opts.downMs));
        await control.setFaults({ down: before });
      }
    },
    setTraffic: (level) => traffic.setLevel(level),
  };
  return control;
}

/** HTTP face of the control API under /__control (API key required; faults never apply). */
export function controlHttpHandler(st: SimulatorState, getControl: () => SimulatorControl): (ctx: RequestContext) => Promise<void> {
  return async (ctx) => {
    const c = getControl();
    const path = ctx.path.replace(/^\/__control/i, '') || '/';
    const m = ctx.method;
    const seg = path.split('/').filter(Boolean);
    const ok = (v: unknown, status = 200): void => sendJson(ctx.res, status, v);
    try {
      const body = m === 'GET' || m === 'DELETE' ? {} : await ctx.body();
      const [a, b, d] = seg;
      if (m === 'GET' && a === 'state') {
        return ok({
          flavor: st.opts.flavor,
          blurHashes: st.opts.blurHashes,
          seed: st.opts.seed,
          scale: st.opts.scale,
          clock: { now: c.clock.now(), mode: c.clock.mode },
          counts: c.counts(),
          faults: c.faults(),
          pluginEnabled: st.pluginEnabled,
          activePlays: c.activePlays().length,
        });
      }
      if (a === 'clock') {
        if (m === 'POST' && b === 'advance') return ok({ now: c.advance(Number(body.ms ?? 0)) });
        if (m === 'GET') return ok({ now: c.clock.now(), mode: c.clock.mode });
      }
      if (a === 'sessions') {
        if (m === 'GET' && !b) return ok(c.sessions());
        if (m === 'POST' && !b) return ok(c.connect(body as ConnectOptions), 201);
        if (m === 'DELETE' && b) return ok({ removed: c.disconnect(b) });
      }
      if (a === 'messages' && m === 'GET') return ok(c.messages());
      if (a === 'ground-truth' && m === 'GET') return ok(c.groundTruth());
      if (a === 'plays') {
        if (m === 'GET' && !b) return ok(ctx.params.bool('active') ? c.activePlays() : c.groundTruth());
        if (m === 'POST' && !b) return ok(c.startPlay(body as unknown as StartPlayOptions), 201);
        if (m === 'GET' && b && !d) {
          const p = c.play(b);
          return p ? ok(p) : ok({ error: `no play ${b}` }, 404);
        }
        if (m === 'POST' && b && d) {
          switch (d) {
            case 'pause':
              return ok(c.pause(b));
            case 'resume':
              return ok(c.resume(b));
            case 'stop':
              return ok(c.stop(b));
            case 'next':
              return ok(c.nextEpisode(b));
            case 'vanish':
              return ok(c.vanish(b, { keepSession: body.keepSession === true }));
            case 'seek': {
              const ticks = typeof body.positionTicks === 'number' ? body.positionTicks : Number(body.positionSeconds ?? 0) * 10_000_000;
              return ok(c.seek(b, ticks));
            }
          }
        }
      }
      if (a === 'items') {
        if (m === 'GET' && !b) return ok(c.itemIds((ctx.params.get('type') ?? 'Movie') as ItemKind, ctx.params.int('limit') ?? 100));
        if (m === 'POST' && !b) return ok(c.addItem(body as unknown as ItemInput), 201);
        if (m === 'PATCH' && b) return ok(c.updateItem(b, body as ItemPatch));
        if (m === 'DELETE' && b) return ok({ removed: c.deleteItem(b) });
      }
      if (a === 'users') {
        if (m === 'GET' && !b) return ok(c.users());
        if (m === 'POST' && !b) return ok(c.addUser(body as unknown as UserInput), 201);
        if (m === 'POST' && b && d === 'token')
          return ok(
            c.userToken(
              b,
              typeof body.client === 'string' ? body.client : undefined,
              typeof body.deviceId === 'string' ? body.deviceId : undefined,
            ),
            201,
          );
        if (m === 'PATCH' && b) return ok(c.updateUser(b, body as UserPatch));
        if (m === 'DELETE' && b) return ok({ removed: c.deleteUser(b) });
      }
      if (a === 'faults') {
        if (m === 'GET') return ok(c.faults());
        if (m === 'PUT' || m === 'POST') return ok(await c.setFaults(body as Partial<FaultSettings>));
        if (m === 'DELETE') return ok(await c.clearFaults());
      }
      if (a === 'plugin' && (m === 'PUT' || m === 'POST')) {
        c.setPluginEnabled(body.enabled !== false);
        return ok({ enabled: st.pluginEnabled });
      }
      if (a === 'restart' && m === 'POST') {
        await c.restartServer({
          downMs: typeof body.downMs === 'number' ? body.downMs : undefined,
          mode: body.mode === '503' ? '503' : 'refused',
        });
        return ok({ restarted: true });
      }
      if (a === 'traffic' && (m === 'PUT' || m === 'POST')) {
        const level = body.level === 'low' || body.level === 'high' ? body.level : 'off';
        c.setTraffic(level);
        return ok({ level });
      }
      ok({ error: `no control route ${m} ${path}` }, 404);
    } catch (e) {
      ok({ error: e instanceof Error ? e.message : String(e) }, 400);
    }
  };
}
