/** The simulator's state: library, users, tokens, sessions, plugin, clock and faults, shared by HTTP and control. */
import { randomBytes } from 'node:crypto';
import { Clock, type ClockMode } from './clock.js';
import { Faults } from './faults.js';
import { generateLibrary, type Flavor, type IdFactory, sortName } from './library/generate.js';
import type { Store } from './library/store.js';
import type { ItemKind, Scale, SimItem, SimUser } from './library/types.js';
import { PlaybackReporting } from './playback-reporting.js';
import { ItemQueryEngine } from './query.js';
import { SessionManager } from './sessions/manager.js';
import { normalizeId } from './wire.js';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  scale?: Scale;
  apiKey?: string;
  flavor?: Flavor;
  /** Accept X-Emby-Token, X-MediaBrowser-Token, X-Emby-Authorization, the Emby scheme and ?api_key= (Jellyfin 10.11 default: on). */
  legacyAuth?: boolean;
  traffic?: 'off' | 'low' | 'high';
  clock?: ClockMode;
  /** Start of virtual time (epoch ms); default: the wall clock at start. */
  startTime?: number;
  serverName?: string;
  /** Period of the idle-playback check (default 5 min, as Jellyfin). */
  idleCheckIntervalMs?: number;
  /** Send ImageBlurHashes (Jellyfin only; default on). Off acts like a Jellyfin server that computed none. */
  blurHashes?: boolean;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  seed: number;
  scale: Scale;
  apiKey: string;
  flavor: Flavor;
  legacyAuth: boolean;
  traffic: 'off' | 'low' | 'high';
  clock: ClockMode;
  serverName: string;
  blurHashes: boolean;
}

export class SimulatorState {
  readonly opts: ResolvedOptions;
  readonly store: Store;
  readonly ids: IdFactory;
  readonly serverId: string;
  readonly clock: Clock;
  readonly engine: ItemQueryEngine;
  readonly sessions: SessionManager;
  readonly faults: Faults;
  /** access token → user id (API key handled separately) */
  readonly tokens = new Map<string, string>();
  readonly tokenSessions = new Map<string, string>();
  pluginEnabled = true;
  readonly activity: ActivityEntry[] = [];
  baseUrl = '';
  readonly version: string;
  readonly productName: string | undefined;
  startedAtMs: number;
  generationMs: number;

  private constructor(
    opts: ResolvedOptions,
    readonly reporting: PlaybackReporting,
    startTime: number | undefined,
    idleCheckIntervalMs: number | undefined,
  ) {
    this.opts = opts;
    const t0 = performance.now();
    const gen = generateLibrary({ seed: opts.seed, scale: opts.scale, flavor: opts.flavor });
    this.generationMs = performance.now() - t0;
    this.store = gen.store;
    this.ids = gen.ids;
    this.serverId = gen.serverId;
    this.clock = new Clock(opts.clock, startTime);
    this.startedAtMs = this.clock.now();
    this.engine = new ItemQueryEngine(this.store, opts.flavor);
    this.faults = new Faults(opts.seed);
    this.sessions = new SessionManager(
      this.store,
      this.clock,
      reporting,
      opts.flavor,
      opts.seed,
      {
        onUserDataChanged: () => this.engine.userDataVersion++,
        onActivity: (e) => this.logActivity(e.type, e.name, e.userId, e.itemId, e.overview),
      },
      idleCheckIntervalMs,
    );
    this.version = opts.flavor === 'emby' ? '4.8.11.0' : '10.11.11';
    this.productName = opts.flavor === 'emby' ? 'Emby Server' : 'Jellyfin Server';
  }

  static async create(o: SimulatorOptions): Promise<SimulatorState> {
    const flavor = o.flavor ?? 'jellyfin';
    const opts: ResolvedOptions = {
      port: o.port ?? 0,
      host: o.host ?? '127.0.0.1',
      seed: o.seed ?? 1,
      scale: o.scale ?? 'tiny',
      apiKey: o.apiKey ?? randomBytes(16).toString('hex'),
      flavor,
      legacyAuth: flavor === 'emby' ? true : (o.legacyAuth ?? true),
      traffic: o.traffic ?? 'off',
      clock: o.clock ?? 'virtual',
      serverName: o.serverName ?? (flavor === 'emby' ? 'reelstat-emby-sim' : 'reelstat-jellyfin-sim'),
      blurHashes: o.blurHashes ?? true,
    };
    const reporting = await PlaybackReporting.create(flavor);
    return new SimulatorState(opts, reporting, o.startTime, o.idleCheckIntervalMs);
  }

  logActivity(type: string, name: string, userId?: string, itemId?: string, overview?: string): void {
    this.activity.push({
      id: this.activity.length + 1,
      type,
      name,
      userId,
      itemId,
      overview,
      dateMs: this.clock.now(),
      severity: 'Information',
    });
  }

  userNames(): Map<string, string> {
    return new Map([...this.store.users.values()].map((u) => [u.id, u.name]));
  }

  findUser(raw: string): SimUser | undefined {
    return this.store.users.get(normalizeId(raw));
  }

  findItem(raw: string): SimItem | undefined {
    return this.store.get(normalizeId(raw));
  }

  /** Counts printed by the CLI and served by the control API. */
  counts(): SimCounts {
    const byKind: Record<string, number> = {};
    for (const [k, s] of this.store.byKind) byKind[k] = s.size;
    const recursiveTotal = this.engine.run({
      recursive: true,
      includeKinds: [],
      excludeKinds: [],
      mediaTypes: [],
      ids: [],
      excludeIds: [],
      years: [],
      genres: [],
      seriesStatus: [],
      artistIds: [],
      albumIds: [],
      sortBy: [],
      sortOrder: [],
    }).length;
    let extras = 0;
    for (const s of this.store.extrasByOwner.values()) extras += s.size;
    return {
      users: this.store.users.size,
      libraries: this.store.libraries.filter((l) => ['movies', 'tvshows', 'music', 'mixed'].includes(l.collectionType)).length,
      virtualFolders: this.store.libraries.filter((l) => l.virtual).length,
      items: recursiveTotal,
      movies: byKind.Movie ?? 0,
      series: byKind.Series ?? 0,
      seasons: byKind.Season ?? 0,
      episodes: byKind.Episode ?? 0,
      artists: byKind.MusicArtist ?? 0,
      albums: byKind.MusicAlbum ?? 0,
      tracks: byKind.Audio ?? 0,
      boxsets: byKind.BoxSet ?? 0,
      playlists: byKind.Playlist ?? 0,
      extras,
    };
  }

  // ---------- library changes (control API) ----------

  addItem(input: ItemInput): SimItem {
    const now = this.clock.now();
    const parent = input.parentId ? this.findItem(input.parentId) : undefined;
    if (input.parentId && !parent) throw new Error(`no parent ${input.parentId}`);
    const kind = input.type;
    const libraryId = parent?.libraryId ?? this.store.libraries.find((l) => l.collectionType === defaultCollection(kind))?.id;
    const id = input.id ? normalizeId(input.id) : this.ids.item();
    const series = parent?.kind === 'Season' ? this.store.get(parent.seriesId ?? '') : parent?.kind === 'Series' ? parent : undefined;
    const isFolder = ['Series', 'Season', 'MusicArtist', 'MusicAlbum', 'BoxSet', 'Playlist'].includes(kind);
    const item: SimItem = {
      id,
      kind,
      name: input.name,
      sortName: sortName(input.name),
      parentId: parent?.id ?? libraryId,
      libraryId,
      isFolder,
      mediaType: kind === 'Audio' ? 'Audio' : isFolder ? 'Unknown' : 'Video',
      seriesId: kind === 'Episode' || kind === 'Season' ? series?.id : undefined,
      seriesName: kind === 'Episode' || kind === 'Season' ? series?.name : undefined,
      seasonId: kind === 'Episode' && parent?.kind === 'Season' ? parent.id : undefined,
      seasonName: kind === 'Episode' && parent?.kind === 'Season' ? parent.name : undefined,
      albumId: kind === 'Audio' && parent?.kind === 'MusicAlbum' ? parent.id : undefined,
      album: kind === 'Audio' && parent?.kind === 'MusicAlbum' ? parent.name : undefined,
      albumArtist: parent?.albumArtist,
      artists: parent?.artists,
      artistIds: parent?.artistIds,
      indexNumber: input.indexNumber,
      parentIndexNumber: input.parentIndexNumber ?? (kind === 'Episode' ? parent?.indexNumber : undefined),
      runTimeTicks:
        input.runTimeTicks ??
        (isFolder ? undefined : kind === 'Audio' ? 2_400_000_000 : kind === 'Episode' ? 26_000_000_000 : 66_000_000_000),
      productionYear: input.productionYear,
      dateCreated: input.dateCreated ?? now,
      dateLastSaved: now,
      genres: input.genres ?? [],
      overview: input.overview,
      providerIds: input.providerIds,
      path: input.path ?? `${parent?.path ?? '/media/added'}/${input.name}${isFolder ? '' : kind === 'Audio' ? '.flac' : '.mkv'}`,
      images: ['Primary'],
      revision: 0,
    };
    if (!isFolder) {
      const template = this.findTemplate(kind);
      if (template?.media)
        item.media = { ...template.media, size: Math.round((template.media.bitrate / 8) * ((item.runTimeTicks ?? 0) / 1e7)) };
    }
    this.store.add(item);
    return item;
  }

  private findTemplate(kind: ItemKind): SimItem | undefined {
    for (const id of this.store.byKind.get(kind) ?? []) {
      const it = this.store.get(id);
      if (it?.media) return it;
    }
    return undefined;
  }

  updateItem(rawId: string, patch: ItemPatch): SimItem {
    const item = this.findItem(rawId);
    if (!item) throw new Error(`no item ${rawId}`);
    const p: Partial<SimItem> = {};
    if (patch.name !== undefined) {
      p.name = patch.name;
      p.sortName = sortName(patch.name);
    }
    if (patch.overview !== undefined) p.overview = patch.overview;
    if (patch.genres !== undefined) p.genres = patch.genres;
    if (patch.productionYear !== undefined) p.productionYear = patch.productionYear;
    if (patch.runTimeTicks !== undefined) p.runTimeTicks = patch.runTimeTicks;
    if (patch.path !== undefined) p.path = patch.path;
    if (patch.providerIds !== undefined) p.providerIds = patch.providerIds;
    if (patch.dateCreated !== undefined) p.dateCreated = patch.dateCreated;
    const updated = this.store.update(item.id, p, this.clock.now());
    if (patch.name !== undefined) this.propagateName(updated);
    return updated;
  }

  private propagateName(item: SimItem): void {
    if (item.kind === 'Series')
      for (const id of this.store.descendants(item.id)) {
        const c = this.store.get(id);
        if (c) c.seriesName = item.name;
      }
    if (item.kind === 'Season')
      for (const id of this.store.childIds(item.id)) {
        const c = this.store.get(id);
        if (c) c.seasonName = item.name;
      }
    if (item.kind === 'MusicAlbum')
      for (const id of this.store.childIds(item.id)) {
        const c = this.store.get(id);
        if (c) c.album = item.name;
      }
  }

  deleteItem(rawId: string): string[] {
    const item = this.findItem(rawId);
    if (!item) throw new Error(`no item ${rawId}`);
    return this.store.remove(item.id);
  }

  addUser(input: UserInput): SimUser {
    const id = input.id ? normalizeId(input.id) : this.ids.guid();
    if (this.store.users.has(id)) throw new Error(`user ${id} exists`);
    const now = this.clock.now();
    const u: SimUser = {
      id,
      name: input.name,
      password: input.password ?? 'password',
      isAdministrator: input.isAdministrator ?? false,
      isHidden: input.isHidden ?? false,
      isDisabled: input.isDisabled ?? false,
      hasImage: input.hasImage ?? false,
      imageRevision: 0,
      enableAllFolders: true,
      enabledFolders: [],
      dateCreated: now,
    };
    this.store.users.set(id, u);
    this.store.version++;
    this.logActivity('UserCreated', `User ${u.name} has been created`, u.id);
    return u;
  }

  updateUser(
    rawId: string,
    patch: Partial<
      Pick<
        SimUser,
        'name' | 'password' | 'isAdministrator' | 'isHidden' | 'isDisabled' | 'hasImage' | 'enableAllFolders' | 'enabledFolders'
      >
    >,
  ): SimUser {
    const u = this.findUser(rawId);
    if (!u) throw new Error(`no user ${rawId}`);
    Object.assign(u, patch);
    if (patch.hasImage !== undefined) u.imageRevision++;
    this.store.version++;
    return u;
  }

  deleteUser(rawId: string): boolean {
    const u = this.findUser(rawId);
    if (!u) return false;
    for (const s of [...this.sessions.sessions.values()]) if (s.userId === u.id) this.sessions.removeSession(s.id, 'vanished');
    for (const [t, uid] of this.tokens) if (uid === u.id) this.tokens.delete(t);
    this.store.users.delete(u.id);
    this.store.userData.delete(u.id);
    this.logActivity('UserDeleted', `User ${u.name} has been deleted`);
    this.store.version++;
    return true;
  }

  /** A login: token bound to the user and a session keyed by Client+DeviceId. */
  login(
    user: SimUser,
    client: string,
    deviceId: string,
    device: string | undefined,
    remoteEndPoint: string,
  ): { token: string; sessionId: string } {
    const token = randomBytes(16).toString('hex');
    this.tokens.set(token, user.id);
    const s = this.sessions.connect({ userId: user.id, client, deviceId, deviceName: device, remoteEndPoint });
    this.tokenSessions.set(token, s.id);
    user.lastLoginDate = this.clock.now();
    user.lastActivityDate = user.lastLoginDate;
    this.logActivity(
      'AuthenticationSucceeded',
      `${user.name} successfully authenticated`,
      user.id,
      undefined,
      `IP address: ${remoteEndPoint}`,
    );
    this.logActivity('SessionStarted', `${user.name} is online from ${device ?? client}`, user.id);
    return { token, sessionId: s.id };
  }
}

function defaultCollection(kind: ItemKind): string {
  if (kind === 'Movie') return 'movies';
  if (kind === 'Series' || kind === 'Season' || kind === 'Episode') return 'tvshows';
  if (kind === 'MusicArtist' || kind === 'MusicAlbum' || kind === 'Audio') return 'music';
  if (kind === 'BoxSet') return 'boxsets';
  return 'mixed';
}

/** What the simulator generated; `items` equals /Items?Recursive=true&Limit=0's TotalRecordCount (API key). */
export interface SimCounts {
  users: number;
  /** movies, tvshows, music and mixed libraries */
  libraries: number;
  /** /Library/VirtualFolders entries (the media libraries plus Collections) */
  virtualFolders: number;
  items: number;
  movies: number;
  series: number;
  seasons: number;
  episodes: number;
  artists: number;
  albums: number;
  tracks: number;
  boxsets: number;
  playlists: number;
  /** theme songs, theme videos and local trailers (not listed by /Items) */
  extras: number;
}

export interface ActivityEntry {
  id: number;
  type: string;
  name: string;
  userId?: string;
  itemId?: string;
  overview?: string;
  dateMs: number;
  severity: 'Information' | 'Warning' | 'Error';
}

export interface ItemInput {
  /** Reuse an id (e.g. re-add a deleted item). 32-hex or dashed GUID on Jellyfin, numeric string on Emby. */
  id?: string;
  type: ItemKind;
  name: string;
  /** Library, series, season, artist or album id; default: the library for this type. */
  parentId?: string;
  indexNumber?: number;
  parentIndexNumber?: number;
  runTimeTicks?: number;
  productionYear?: number;
  dateCreated?: number;
  genres?: string[];
  overview?: string;
  providerIds?: Record<string, string>;
  path?: string;
}

export interface ItemPatch {
  name?: string;
  overview?: string;
  genres?: string[];
  productionYear?: number;
  runTimeTicks?: number;
  path?: string;
  providerIds?: Record<string, string>;
  dateCreated?: number;
}

export interface UserInput {
  id?: string;
  name: string;
  password?: string;
  isAdministrator?: boolean;
  isHidden?: boolean;
  isDisabled?: boolean;
  hasImage?: boolean;
}
