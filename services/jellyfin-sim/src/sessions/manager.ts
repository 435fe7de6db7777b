/**
 * Sessions that behave like Jellyfin's SessionManager: state changes only when the (simulated) client
 * reports; progress reports every 10 s; stop clears NowPlayingItem/PlayState/TranscodingInfo; plays with no
 * check-in for more than 5 minutes are auto-stopped by a periodic idle check. Every play is also written to
 * the ground truth and to the Playback Reporting table.
 */
import { createHash } from 'node:crypto';
import type { Clock, TimerHandle } from '../clock.js';
import type { Flavor } from '../library/generate.js';
import type { Store } from '../library/store.js';
import type { SimItem } from '../library/types.js';
import type { PlaybackReporting } from '../playback-reporting.js';
import { Rng } from '../rng.js';
import { TICKS_PER_MS, TICKS_PER_SECOND, formatDate, formatSqliteDate } from '../wire.js';
import { CLIENTS, clientByKey, type ClientProfile } from './clients.js';
import type { ActivePlay, EndReason, PlayMethod, PlayRecord, SimSession, TranscodeSpec } from './types.js';

export const PROGRESS_INTERVAL_MS = 10_000;
export const IDLE_PLAYBACK_MS = 5 * 60_000;
const MIN_RESUME_PCT = 5;
const MAX_RESUME_PCT = 90;
const MIN_RESUME_DURATION_SECONDS = 300;

export interface ConnectOptions {
  userId?: string;
  client?: string;
  deviceId?: string;
  deviceName?: string;
  remoteEndPoint?: string;
  /** Force the public/LAN address class when no remoteEndPoint is given. */
  remote?: boolean;
}

export interface StartPlayOptions extends ConnectOptions {
  itemId: string;
  /** Reuse an existing session instead of connecting a new one. */
  sessionId?: string;
  method?: PlayMethod;
  /** For Transcode: which parts are re-encoded (default: both video and audio for video items). */
  transcodeVideo?: boolean;
  transcodeAudio?: boolean;
  transcodeReasons?: string[];
  startPositionTicks?: number;
  /** Continue with the next episode when this one ends (default true for episodes). */
  autoplay?: boolean;
  audioStreamIndex?: number;
  subtitleStreamIndex?: number;
  /** Pre-rolls (cinema-mode intros, e.g. trailers) played in this session before itemId, one play each. */
  preRollIds?: string[];
  /** Internal: items still to play in this session after the current one (pre-roll chain). */
  queue?: string[];
}

export interface SessionEvents {
  onUserDataChanged(): void;
  onActivity(entry: { type: string; name: string; userId?: string; itemId?: string; overview?: string }): void;
}

/** What /Devices lists: every device that ever connected, kept after its session is gone. */
export interface DeviceRecord {
  deviceId: string;
  internalId: number;
  name: string;
  appName: string;
  appVersion: string;
  lastUserId?: string;
  lastActivityMs: number;
  remoteEndPoint: string;
  clientKey: string;
}

/** A message an administrator sent to a session (POST /Sessions/{id}/Message), as the client would show it. */
export interface SessionMessage {
  sessionId: string;
  header: string;
  text: string;
  timeoutMs?: number;
  atMs: number;
}

export class SessionManager {
  readonly sessions = new Map<string, SimSession>();
  /** Messages sent to sessions, oldest first (the control API lists them). */
  readonly messages: SessionMessage[] = [];
  readonly devices = new Map<string, DeviceRecord>();
  readonly plays: PlayRecord[] = [];
  private readonly playsById = new Map<string, ActivePlay | PlayRecord>();
  private readonly active = new Map<string, ActivePlay>();
  private readonly rng: Rng;
  private idleTimer?: TimerHandle;
  private playCounter = 0;
  private deviceCounter = 0;
  hardwareAcceleration = 'vaapi';

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly reporting: PlaybackReporting,
    private readonly flavor: Flavor,
    seed: number,
    private readonly events: SessionEvents,
    readonly idleCheckIntervalMs = IDLE_PLAYBACK_MS,
  ) {
    this.rng = new Rng(seed).fork('sessions');
  }

  // ---------- sessions ----------

  connect(opts: ConnectOptions = {}): SimSession {
    const client = this.resolveClient(opts.client);
    const deviceId = opts.deviceId ?? this.makeDeviceId(client);
    const id = sessionId(client.client, deviceId);
    const existing = this.sessions.get(id);
    const now = this.clock.now();
    if (existing) {
      if (opts.userId) existing.userId = opts.userId;
      existing.lastActivityMs = now;
      return existing;
    }
    const s: SimSession = {
      id,
      userId: opts.userId,
      client,
      deviceId,
      deviceName: opts.deviceName ?? this.rng.pick(client.deviceNames),
      remoteEndPoint: opts.remoteEndPoint ?? this.makeAddress(opts.remote),
      internalDeviceId: ++this.deviceCounter,
      lastActivityMs: now,
    };
    this.sessions.set(id, s);
    if (s.userId) this.touchUser(s.userId, now);
    this.touchDevice(s);
    return s;
  }

  /** The client disappears: the session leaves the list at once (websocket closed / logout). */
  removeSession(id: string, reason: EndReason = 'vanished'): boolean {
    const s = this.sessions.get(id);
    if (!s) return false;
    if (s.play) this.finish(s, reason, { report: false });
    this.sessions.delete(id);
    return true;
  }

  private resolveClient(key: string | undefined): ClientProfile {
    if (key) {
      const c = clientByKey(key);
      if (c) return c;
      return { ...(CLIENTS[0] as ClientProfile), key, client: key };
    }
    const pool = CLIENTS.filter((c) => c.flavors.includes(this.flavor));
    return this.rng.pick(pool);
  }

  private makeDeviceId(client: ClientProfile): string {
    const raw = `${client.key}-${this.rng.hex32()}`;
    return client.key === 'jellyfin-web' ? Buffer.from(raw).toString('base64').replace(/=+$/, '') : raw.slice(-32);
  }

  private makeAddress(remote?: boolean): string {
    const isRemote = remote ?? this.rng.chance(0.35);
    if (!isRemote) return this.rng.chance(0.8) ? `192.168.1.${this.rng.int(2, 254)}` : `10.0.0.${this.rng.int(2, 254)}`;
    // Public addresses from the documentation ranges (RFC 5737) and a few realistic-looking ones.
    const v4 = [
      `203.0.113.${this.rng.int(1, 254)}`,
      `198.51.100.${this.rng.int(1, 254)}`,
      `81.2.${this.rng.int(0, 255)}.${this.rng.int(1, 254)}`,
    ];
    // Emby's schema declares RemoteEndPoint as format ipv4; Jellyfin also shows IPv6 clients.
    const v6 =
      this.flavor === 'jellyfin' ? [`2a02:c7f:${this.rng.int(4096, 65535).toString(16)}::${this.rng.int(1, 255).toString(16)}`] : [];
    return this.rng.pick([...v4, ...v6]);
  }

  private touchDevice(s: SimSession): void {
    const d = this.devices.get(s.deviceId);
    const rec: DeviceRecord = {
      deviceId: s.deviceId,
      internalId: d?.internalId ?? s.internalDeviceId,
      name: s.deviceName,
      appName: s.client.client,
      appVersion: s.client.appVersion,
      lastUserId: s.userId ?? d?.lastUserId,
      lastActivityMs: s.lastActivityMs,
      remoteEndPoint: s.remoteEndPoint,
      clientKey: s.client.key,
    };
    this.devices.set(s.deviceId, rec);
  }

  private touchUser(userId: string, now: number): void {
    const u = this.store.users.get(userId);
    if (u) u.lastActivityDate = now;
  }

  // ---------- plays ----------

  start(opts: StartPlayOptions): PlayRecord {
    const item = this.store.get(opts.itemId);
    if (!item) throw new Error(`no item ${opts.itemId}`);
    if (!item.runTimeTicks || item.isFolder) throw new Error(`item ${opts.itemId} is not playable`);
    let session = opts.sessionId ? this.sessions.get(opts.sessionId) : undefined;
    if (opts.sessionId && !session) throw new Error(`no session ${opts.sessionId}`);
    session ??= this.connect(opts);
    const userId = opts.userId ?? session.userId;
    if (!userId || !this.store.users.has(userId)) throw new Error('a play needs an existing user');
    session.userId = userId;
    if (session.play) this.finish(session, 'stopped', { report: true });
    const preRolls = (opts.preRollIds ?? []).map((id) => {
      const p = this.store.get(id);
      if (!p?.runTimeTicks || p.isFolder) throw new Error(`pre-roll ${id} is not playable`);
      return p;
    });
    const first = preRolls[0];
    if (first)
      return this.begin(session, first, {
        ...opts,
        autoplay: opts.autoplay ?? item.kind === 'Episode',
        queue: [...preRolls.slice(1).map((p) => p.id), item.id],
      });
    return this.begin(session, item, opts);
  }

  private begin(session: SimSession, item: SimItem, opts: Omit<StartPlayOptions, 'itemId'>): PlayRecord {
    const now = this.clock.now();
    const user = this.store.users.get(session.userId as string);
    const method = opts.method ?? 'DirectPlay';
    const transcode = method === 'Transcode' ? this.transcodeSpec(session, item, opts) : undefined;
    const startPositionTicks = Math.max(0, Math.min(opts.startPositionTicks ?? 0, item.runTimeTicks ?? 0));
    const playId = `play-${String(++this.playCounter).padStart(6, '0')}`;
    const record: PlayRecord = {
      playId,
      sessionId: session.id,
      userId: session.userId as string,
      userName: user?.name ?? '',
      itemId: item.id,
      itemName: item.name,
      itemType: item.kind,
      extraType: item.extraType,
      client: session.client.client,
      deviceName: session.deviceName,
      deviceId: session.deviceId,
      remoteEndPoint: session.remoteEndPoint,
      playMethod: method,
      isVideoDirect: transcode?.isVideoDirect,
      isAudioDirect: transcode?.isAudioDirect,
      transcodeReasons: transcode?.reasons,
      startedAt: formatDate(now),
      startedAtMs: now,
      secondsUnpaused: 0,
      secondsPaused: 0,
      pauseCount: 0,
      seekCount: 0,
      startPositionTicks,
      runTimeTicks: item.runTimeTicks,
      completed: false,
      active: true,
    };
    const audioIndex = item.media?.video ? 1 : 0;
    const play: ActivePlay = {
      record,
      itemId: item.id,
      method,
      transcode,
      audioStreamIndex: opts.audioStreamIndex ?? (item.media ? audioIndex : undefined),
      subtitleStreamIndex: opts.subtitleStreamIndex ?? (item.media?.video ? -1 : undefined),
      anchorPositionTicks: startPositionTicks,
      anchorMs: now,
      paused: false,
      reportedPositionTicks: startPositionTicks,
      reportedPaused: false,
      lastReportingUpdateMs: now,
      silent: false,
      autoplay: opts.autoplay ?? item.kind === 'Episode',
      queue: opts.queue ?? [],
      external: false,
    };
    session.play = play;
    session.lastPausedMs = undefined;
    this.plays.push(record);
    this.playsById.set(playId, play);
    this.active.set(playId, play);
    // SessionManager.OnPlaybackStart: PlayCount + 1 and LastPlayedDate = now for the user.
    const data = this.store.ensureUserData(record.userId, item.id);
    data.playCount += 1;
    data.lastPlayedDate = now;
    this.events.onUserDataChanged();
    record.playbackReportingRowId = this.reporting.insert({
      dateCreated: formatSqliteDate(now),
      userId: record.userId,
      itemId: item.id,
      itemType: item.kind,
      itemName: reportingItemName(item),
      playbackMethod: reportingMethod(method, transcode),
      clientName: session.client.client,
      deviceName: session.deviceName,
      playDuration: 0,
      pauseDuration: 0,
      remoteAddress: session.remoteEndPoint,
      transcodeReasons: transcode?.reasons.join(','),
    });
    this.events.onActivity({
      type: item.mediaType === 'Audio' ? 'AudioPlayback' : 'VideoPlayback',
      name: `${user?.name ?? ''} is playing ${activityItemName(item)} on ${session.deviceName}`,
      userId: record.userId,
      itemId: item.id,
    });
    this.touchDevice(session);
    this.report(session, now);
    this.scheduleProgress(session, play);
    this.scheduleEnd(session, play);
    this.ensureIdleTimer();
    return record;
  }

  private transcodeSpec(session: SimSession, item: SimItem, opts: Omit<StartPlayOptions, 'itemId'>): TranscodeSpec {
    const m = item.media;
    const v = m?.video;
    const a = m?.audio[0]?.profile;
    const videoTranscode = v ? (opts.transcodeVideo ?? true) : false;
    const audioTranscode = opts.transcodeAudio ?? (v ? true : true);
    let reasons = opts.transcodeReasons;
    if (!reasons) {
      reasons = [];
      if (videoTranscode && v) {
        if (v.range === 'HDR') reasons.push('VideoRangeTypeNotSupported');
        if (v.codec !== 'h264') reasons.push('VideoCodecNotSupported');
        if (!reasons.length) reasons.push('ContainerBitrateExceedsLimit');
      }
      if (audioTranscode && a && a.codec !== 'aac' && a.codec !== 'mp3')
        reasons.push(a.channels > 6 ? 'AudioChannelsNotSupported' : 'AudioCodecNotSupported');
      if (!videoTranscode && !audioTranscode) reasons.push('ContainerNotSupported');
      if (!reasons.length) reasons.push('ContainerBitrateExceedsLimit');
    }
    if (this.flavor === 'emby') {
      // Emby's TranscodeReason set differs (contract §7.8).
      reasons = reasons
        .map((r) => (r === 'VideoRangeTypeNotSupported' ? 'VideoRangeNotSupported' : r))
        .filter((r) => !['AudioIsExternal', 'VideoCodecTagNotSupported', 'StreamCountExceedsLimit'].includes(r));
    }
    const scaleDown = videoTranscode && v && v.width > 1920;
    return {
      videoCodec: v ? (videoTranscode ? 'h264' : v.codec) : undefined,
      audioCodec: audioTranscode ? 'aac' : (a?.codec ?? 'aac'),
      container: session.client.transcodeContainer,
      isVideoDirect: v ? !videoTranscode : false,
      isAudioDirect: !audioTranscode,
      bitrate: videoTranscode ? (scaleDown ? 20_000_000 : 8_000_000) + 384_000 : (m?.bitrate ?? 8_000_000),
      framerate: v?.fps,
      width: v ? (scaleDown ? 1920 : v.width) : undefined,
      height: v ? (scaleDown ? 1080 : v.height) : undefined,
      audioChannels: audioTranscode ? Math.min(a?.channels ?? 2, 6) : (a?.channels ?? 2),
      hardwareAccelerationType: videoTranscode ? this.hardwareAcceleration : 'none',
      reasons,
    };
  }

  /** True current position (ticks), from the timeline, regardless of reports. */
  truePosition(play: ActivePlay, now = this.clock.now()): number {
    const run = this.store.get(play.itemId)?.runTimeTicks ?? play.record.runTimeTicks ?? Number.MAX_SAFE_INTEGER;
    const pos = play.paused ? play.anchorPositionTicks : play.anchorPositionTicks + (now - play.anchorMs) * TICKS_PER_MS;
    return Math.min(pos, run);
  }

  /** Books elapsed time since the anchor into the ground truth and moves the anchor to now. */
  private settle(play: ActivePlay, now = this.clock.now()): void {
    const elapsed = Math.max(0, now - play.anchorMs) / 1000;
    if (play.paused) play.record.secondsPaused += elapsed;
    else {
      const run = play.record.runTimeTicks ?? Number.MAX_SAFE_INTEGER;
      const remaining = Math.max(0, (run - play.anchorPositionTicks) / TICKS_PER_SECOND);
      const played = Math.min(elapsed, remaining);
      play.record.secondsUnpaused += played;
      play.anchorPositionTicks = Math.min(run, play.anchorPositionTicks + Math.round(played * TICKS_PER_SECOND));
    }
    play.anchorMs = now;
  }

  /** One client report (start/progress): the only way /Sessions state changes. */
  private report(session: SimSession, at?: number): void {
    const play = session.play;
    if (!play || play.silent) return;
    const now = at ?? this.clock.now();
    play.reportedPositionTicks = this.truePosition(play, now);
    if (play.paused && !play.reportedPaused) session.lastPausedMs = now;
    if (!play.paused) session.lastPausedMs = undefined;
    play.reportedPaused = play.paused;
    session.lastPlaybackCheckInMs = now;
    session.lastActivityMs = now;
    if (session.userId) this.touchUser(session.userId, now);
    // The plugin updates PlayDuration at most every 20 s while playing.
    if (now - play.lastReportingUpdateMs > 20_000 && play.record.playbackReportingRowId !== undefined) {
      this.settle(play, now);
      this.reporting.updateDuration(
        play.record.playbackReportingRowId,
        Math.round(play.record.secondsUnpaused),
        Math.round(play.record.secondsPaused),
      );
      play.lastReportingUpdateMs = now;
    }
  }

  private scheduleProgress(session: SimSession, play: ActivePlay): void {
    this.clock.clearTimer(play.progressTimer);
    if (play.external) return;
    play.progressTimer = this.clock.setTimer(PROGRESS_INTERVAL_MS, () => {
      if (session.play !== play) return;
      this.report(session);
      if (!play.silent) this.scheduleProgress(session, play);
    });
  }

  private scheduleEnd(session: SimSession, play: ActivePlay): void {
    this.clock.clearTimer(play.endTimer);
    play.endTimer = undefined;
    if (play.paused || play.external) return;
    const run = this.store.get(play.itemId)?.runTimeTicks ?? 0;
    const remainingMs = Math.max(0, (run - this.truePosition(play)) / TICKS_PER_MS);
    play.endTimer = this.clock.setTimer(Math.ceil(remainingMs), () => {
      if (session.play !== play) return;
      this.reachEnd(session, play);
    });
  }

  private reachEnd(session: SimSession, play: ActivePlay): void {
    const item = this.store.get(play.itemId);
    play.record.completed = true;
    const queued = play.queue[0] !== undefined ? this.store.get(play.queue[0]) : undefined;
    const next = queued ?? (play.autoplay && item ? this.nextEpisode(item) : undefined);
    if (play.silent) {
      // Nobody is there any more; the timeline simply stops at the end.
      this.settle(play);
      play.paused = true;
      return;
    }
    if (next) {
      this.finish(session, 'autoplay-next', { report: true });
      this.begin(session, next, {
        method: play.method,
        autoplay: queued ? play.autoplay : true,
        queue: queued ? play.queue.slice(1) : [],
        transcodeVideo: play.transcode ? !play.transcode.isVideoDirect : undefined,
        transcodeAudio: play.transcode ? !play.transcode.isAudioDirect : undefined,
      });
    } else {
      this.finish(session, 'stopped', { report: true });
    }
  }

  nextEpisode(item: SimItem): SimItem | undefined {
    if (item.kind !== 'Episode' || !item.seriesId) return undefined;
    const eps: SimItem[] = [];
    for (const seasonId of this.store.childIds(item.seriesId)) {
      for (const id of this.store.childIds(seasonId)) {
        const ep = this.store.get(id);
        if (ep?.kind === 'Episode') eps.push(ep);
      }
    }
    eps.sort((a, b) => (a.parentIndexNumber ?? 0) - (b.parentIndexNumber ?? 0) || (a.indexNumber ?? 0) - (b.indexNumber ?? 0));
    // Autoplay walks the regular seasons; specials only follow specials.
    const special = (item.parentIndexNumber ?? 0) === 0;
    const pool = eps.filter((e) => ((e.parentIndexNumber ?? 0) === 0) === special);
    const i = pool.findIndex((e) => e.id === item.id);
    return i >= 0 ? pool[i + 1] : undefined;
  }

  /**
   * Ends the current play of a session. `report` = the client sent PlaybackStopped (the server updates
   * UserData and clears the now-playing state); without it the session is going away anyway.
   */
  private finish(session: SimSession, reason: EndReason, o: { report: boolean; truthEndMs?: number }): PlayRecord | undefined {
    const play = session.play;
    if (!play) return undefined;
    const now = this.clock.now();
    if (!play.silent) this.settle(play, now);
    const rec = play.record;
    const endPos = play.silent ? play.reportedPositionTicks : this.truePosition(play, now);
    rec.endPositionTicks = play.silent ? play.anchorPositionTicks : endPos;
    rec.endReason = reason;
    rec.active = false;
    const endMs = o.truthEndMs ?? (play.silent ? play.anchorMs : now);
    rec.endedAtMs = endMs;
    rec.endedAt = formatDate(endMs);
    rec.serverStoppedAtMs = now;
    rec.secondsUnpaused = round3(rec.secondsUnpaused);
    rec.secondsPaused = round3(rec.secondsPaused);
    this.clock.clearTimer(play.progressTimer);
    this.clock.clearTimer(play.endTimer);
    this.active.delete(rec.playId);
    this.playsById.set(rec.playId, rec);
    if (rec.playbackReportingRowId !== undefined && reason !== 'vanished' && reason !== 'server-restart') {
      this.reporting.updateDuration(rec.playbackReportingRowId, Math.round(rec.secondsUnpaused), Math.round(rec.secondsPaused));
    }
    if (o.report || reason === 'auto-stopped') {
      // UserDataManager.UpdatePlayState with the position the server knows.
      const item = this.store.get(play.itemId);
      const pos = reason === 'auto-stopped' ? play.reportedPositionTicks : endPos;
      if (item?.runTimeTicks) this.updatePlayState(rec.userId, item, pos);
      session.lastPlaybackCheckInMs = now;
      session.lastActivityMs = now;
    }
    session.play = undefined;
    session.lastPausedMs = undefined;
    if (reason !== 'server-restart' && reason !== 'vanished') {
      const item = this.store.get(rec.itemId);
      this.events.onActivity({
        type: item?.mediaType === 'Audio' ? 'AudioPlaybackStopped' : 'VideoPlaybackStopped',
        name: `${rec.userName} has finished playing ${item ? activityItemName(item) : rec.itemName} on ${rec.deviceName}`,
        userId: rec.userId,
        itemId: rec.itemId,
      });
    }
    this.touchDevice(session);
    return rec;
  }

  private updatePlayState(userId: string, item: SimItem, positionTicks: number): void {
    const d = this.store.ensureUserData(userId, item.id);
    const run = item.runTimeTicks ?? 0;
    const pct = run > 0 ? (positionTicks / run) * 100 : 0;
    if (pct < MIN_RESUME_PCT) d.playbackPositionTicks = 0;
    else if (pct > MAX_RESUME_PCT || positionTicks >= run - TICKS_PER_SECOND || run < MIN_RESUME_DURATION_SECONDS * TICKS_PER_SECOND) {
      d.played = true;
      d.playbackPositionTicks = 0;
    } else d.playbackPositionTicks = positionTicks;
    this.events.onUserDataChanged();
  }

  private activePlay(playId: string): [SimSession, ActivePlay] {
    const play = this.active.get(playId);
    if (!play) throw new Error(`no active play ${playId}`);
    const session = this.sessions.get(play.record.sessionId);
    if (!session || session.play !== play) throw new Error(`play ${playId} has no session`);
    return [session, play];
  }

  pause(playId: string): PlayRecord {
    const [session, play] = this.activePlay(playId);
    if (play.paused) return play.record;
    this.settle(play);
    play.paused = true;
    play.pausedSinceMs = this.clock.now();
    play.record.pauseCount += 1;
    this.scheduleEnd(session, play);
    this.report(session);
    return play.record;
  }

  resume(playId: string): PlayRecord {
    const [session, play] = this.activePlay(playId);
    if (!play.paused) return play.record;
    this.settle(play);
    play.paused = false;
    play.pausedSinceMs = undefined;
    this.scheduleEnd(session, play);
    this.report(session);
    return play.record;
  }

  seek(playId: string, positionTicks: number): PlayRecord {
    const [session, play] = this.activePlay(playId);
    this.settle(play);
    const run = this.store.get(play.itemId)?.runTimeTicks ?? 0;
    play.anchorPositionTicks = Math.max(0, Math.min(run, Math.round(positionTicks)));
    play.record.seekCount += 1;
    this.scheduleEnd(session, play);
    this.report(session);
    return play.record;
  }

  /**
   * A remote playstate command from an administrator (POST /Sessions/{id}/Playing/{command}): Stop ends the
   * play as the client's own stop would (stop report, play written); Pause and Unpause act on it. False when
   * no such session exists; a session with nothing playing ignores the command, as clients do.
   */
  remoteCommand(sessionId: string, command: 'Stop' | 'Pause' | 'Unpause'): boolean {
    const session = this.sessions.get(sessionId);
    if (!session) return false;
    const play = session.play;
    if (!play) return true;
    if (command === 'Stop') this.finish(session, 'stopped', { report: true });
    else if (command === 'Pause') this.pause(play.record.playId);
    else this.resume(play.record.playId);
    return true;
  }

  /** Shows a message on a session's client; false when no such session exists. */
  sendMessage(sessionId: string, message: { header: string; text: string; timeoutMs?: number }): boolean {
    if (!this.sessions.has(sessionId)) return false;
    this.messages.push({ sessionId, ...message, atMs: this.clock.now() });
    return true;
  }

  stop(playId: string): PlayRecord {
    const [session] = this.activePlay(playId);
    return this.finish(session, 'stopped', { report: true }) as PlayRecord;
  }

  /** The user skips to the next episode: stop report for this one, start report for the next. */
  next(playId: string): PlayRecord {
    const [session, play] = this.activePlay(playId);
    const item = this.store.get(play.itemId);
    const nextItem = item ? this.nextEpisode(item) : undefined;
    if (!nextItem) throw new Error(`no next episode after ${play.itemId}`);
    this.finish(session, 'stopped', { report: true });
    return this.begin(session, nextItem, { method: play.method, autoplay: play.autoplay });
  }

  /**
   * The client disappears. With `keepSession` it just goes quiet (app killed, network gone): the session
   * keeps its frozen NowPlayingItem until the idle check auto-stops it. Otherwise the session is removed.
   */
  vanish(playId: string, keepSession = false): PlayRecord {
    const [session, play] = this.activePlay(playId);
    if (keepSession) {
      this.settle(play);
      play.silent = true;
      play.paused = true; // the truth timeline stops: nobody is watching
      this.clock.clearTimer(play.progressTimer);
      this.clock.clearTimer(play.endTimer);
      return play.record;
    }
    const rec = play.record;
    this.removeSession(session.id, 'vanished');
    return rec;
  }

  private ensureIdleTimer(): void {
    if (this.idleTimer) return;
    this.idleTimer = this.clock.setTimer(this.idleCheckIntervalMs, () => {
      this.idleTimer = undefined;
      this.checkIdle();
      if (this.active.size > 0) this.ensureIdleTimer();
    });
  }

  /** SessionManager.CheckForIdlePlayback: stop plays whose last check-in is older than 5 minutes. */
  checkIdle(): void {
    const now = this.clock.now();
    for (const s of this.sessions.values()) {
      if (!s.play) continue;
      if (now - (s.lastPlaybackCheckInMs ?? 0) > IDLE_PLAYBACK_MS) {
        const silentSince = s.play.silent ? s.play.anchorMs : undefined;
        this.finish(s, 'auto-stopped', { report: false, truthEndMs: silentSince });
      }
    }
  }

  /** Media-server restart: every session is dropped, active plays end with 'server-restart'. */
  restart(): void {
    for (const s of [...this.sessions.values()]) {
      if (s.play) this.finish(s, 'server-restart', { report: false });
    }
    this.sessions.clear();
    this.clock.clearTimer(this.idleTimer);
    this.idleTimer = undefined;
  }

  activePlays(): ActivePlay[] {
    return [...this.active.values()];
  }

  /** Ground truth with in-flight totals brought up to date (without touching state). */
  groundTruth(): PlayRecord[] {
    const now = this.clock.now();
    return this.plays.map((r) => {
      const play = this.active.get(r.playId);
      if (!play || play.silent) return { ...r };
      const elapsed = Math.max(0, now - play.anchorMs) / 1000;
      const copy = { ...r };
      if (play.paused) copy.secondsPaused = round3(r.secondsPaused + elapsed);
      else
        copy.secondsUnpaused = round3(
          r.secondsUnpaused + Math.min(elapsed, Math.max(0, ((r.runTimeTicks ?? 0) - play.anchorPositionTicks) / TICKS_PER_SECOND)),
        );
      return copy;
    });
  }

  play(playId: string): PlayRecord | undefined {
    return this.groundTruth().find((p) => p.playId === playId);
  }

  // ---------- client reports over HTTP (/Sessions/Playing …) ----------

  clientReport(session: SimSession, kind: 'start' | 'progress' | 'stopped', body: Record<string, unknown>): void {
    const itemId = typeof body.ItemId === 'string' ? body.ItemId : undefined;
    const pos = typeof body.PositionTicks === 'number' ? body.PositionTicks : undefined;
    if (kind === 'start') {
      if (!itemId) throw new Error('ItemId required');
      const rec = this.start({
        sessionId: session.id,
        itemId,
        method: (body.PlayMethod as PlayMethod | undefined) ?? 'DirectPlay',
        startPositionTicks: pos,
        autoplay: false,
      });
      const play = this.active.get(rec.playId) as ActivePlay;
      // A client driving its own session reports itself; the simulator neither reports nor ends it.
      play.external = true;
      this.clock.clearTimer(play.progressTimer);
      this.clock.clearTimer(play.endTimer);
      return;
    }
    const play = session.play;
    if (!play) return;
    if (kind === 'stopped') {
      if (pos !== undefined) {
        this.settle(play);
        play.anchorPositionTicks = pos;
      }
      this.finish(session, 'stopped', { report: true });
      return;
    }
    const paused = body.IsPaused === true;
    if (paused !== play.paused) (paused ? this.pause : this.resume).call(this, play.record.playId);
    if (pos !== undefined && Math.abs(pos - this.truePosition(play)) > 5 * TICKS_PER_SECOND) this.seek(play.record.playId, pos);
    this.report(session);
  }
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export function sessionId(client: string, deviceId: string): string {
  return createHash('md5')
    .update(Buffer.from(client + deviceId, 'utf16le'))
    .digest('hex');
}

function activityItemName(item: SimItem): string {
  if (item.kind === 'Episode') return `${item.seriesName ?? ''} - ${item.seasonName ?? ''} - ${item.name}`;
  return item.name;
}

export function reportingItemName(item: SimItem): string {
  if (item.kind === 'Episode') {
    const s = String(item.parentIndexNumber ?? 0).padStart(2, '0');
    const e = String(item.indexNumber ?? 0).padStart(2, '0');
    return `${item.seriesName ?? ''} - s${s}e${e} - ${item.name}`;
  }
  if (item.kind === 'Audio') return `${item.artists?.[0] ?? ''} - ${item.name} (${item.album ?? ''})`;
  return item.name;
}

export function reportingMethod(method: PlayMethod, t: TranscodeSpec | undefined): string {
  if (method !== 'Transcode' || !t) return method;
  return `Transcode (v:${t.isVideoDirect ? 'direct' : (t.videoCodec ?? 'direct')} a:${t.isAudioDirect ? 'direct' : t.audioCodec})`;
}
