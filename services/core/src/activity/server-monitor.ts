import type { Database } from '../db/database.js';
import type { EventBus } from '../bus/event-bus.js';
import type { Logger } from '../logging/logger.js';
import type { AppSettings } from '../settings/app-settings.js';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import type { SessionInfo } from '../media-server/schemas/session.js';
import { isMediaServerError } from '../media-server/media-server-error.js';
import type { MediaServerKind } from '../media-servers/media-server-links.js';
import { historyChange, publishHistoryChange } from '../history/history-events.js';
import { writeHistory, type HistoryWrite, type PlayToRecord } from '../history/record-plays.js';
import type { LiveSession } from '@reelstat/contract';
import type { ActivityMetrics } from './activity-metrics.js';
import { loadLivePlays, lockServerPlays, saveLivePlays } from './live-plays-repository.js';
import { liveSessionsPayload } from './live-session-payload.js';
import { PlayClassifier } from './play-classifier.js';
import { LibraryNames } from './library-names.js';
import { PLAYBACK_ENDED_CHANNEL, PLAYBACK_STARTED_CHANNEL, playbackEvent } from './playback-events.js';
import { playsToStart, reconcile, type LivePlay, type NewPlayInfo, type Transition } from './play-state-machine.js';
import { UnsavedChanges } from './unsaved-changes.js';
import { reportTime, sampleSessions } from './session-sample.js';
import { enqueueWebhookEvents } from '../webhooks/webhook-events.js';
import { playbackWebhookEvents } from './playback-webhooks.js';
import { ServerReachability } from '../webhooks/server-reachability.js';
import { inBackgroundSpan } from '../tracing/background-span.js';

const PLAY_METHODS = ['DirectPlay', 'DirectStream', 'Transcode'] as const;

export interface ServerMonitorDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  settings: AppSettings;
  metrics: ActivityMetrics;
  server: { id: string; name: string; kind: MediaServerKind };
  client: MediaServerClient;
  /** Our clock (tests pass the simulator's virtual clock). */
  now?: () => number;
  /** Called with the live sessions as soon as /Sessions answered, before the play state is written. */
  onSessions?: (sessions: LiveSession[]) => void;
}

export interface PollResult {
  ok: boolean;
  /** Something is playing: poll at the active interval. */
  playing: boolean;
  /** The `sessions` payload of this server (SPEC.md §3 Session), when the poll reached the server. */
  sessions?: LiveSession[];
  transition?: Transition;
}

/**
 * Watches one media server: each poll reads /Sessions, runs the play state machine against the live state,
 * and writes the changes, the history rows of the plays that ended (inserted, or extended after a resume:
 * writeHistory) and the rollups in one transaction. The live state
 * is in the database, so another process (restart, failover) carries on where this one stopped.
 */
export class ServerMonitor {
  private plays: LivePlay[] | undefined;
  private unsaved = new UnsavedChanges();
  /** Fingerprint (liveStateFingerprint) of the live state in the database as this monitor last wrote or read it. */
  private committed = '';
  /** Observing only: polls and keeps its state in memory, writes nothing (see observeOnly). */
  private observing = false;
  /** Before the next write, check the database still holds what this monitor last committed (see takeOver). */
  private verifyBeforeWrite = false;
  private readonly classifier: PlayClassifier;
  private readonly libraryNames: LibraryNames;
  private readonly now: () => number;
  private readonly reachability: ServerReachability;

  constructor(private readonly deps: ServerMonitorDeps) {
    this.now = deps.now ?? Date.now;
    this.reachability = new ServerReachability(deps.db, { id: deps.server.id, name: deps.server.name });
    this.classifier = new PlayClassifier(deps.db, deps.server.id, deps.client, deps.logger);
    this.libraryNames = new LibraryNames(deps.db, deps.server.id);
  }

  get serverId(): string {
    return this.deps.server.id;
  }

  /**
   * Stops writing, keeps polling: used while this process is not the leader for a moment (leadership is lost
   * when the database connection is), so the plays that end meanwhile are seen and keep their true times.
   */
  observeOnly(): void {
    this.observing = true;
  }

  /**
   * Writes again. What it kept in memory is written only if the database still holds the live state this
   * monitor last committed; if another leader wrote in between, the database is the truth and memory is dropped.
   */
  takeOver(): void {
    this.observing = false;
    this.verifyBeforeWrite = true;
  }

  pollOnce(): Promise<PollResult> {
    return inBackgroundSpan('activity poll', { 'reelstat.server': this.deps.server.name }, () => this.poll());
  }

  private async poll(): Promise<PollResult> {
    const { metrics, server, logger } = this.deps;
    const stopTimer = metrics.pollDuration.startTimer({ server: server.name });
    try {
      let sessions: SessionInfo[];
      try {
        sessions = await this.deps.client.getSessions();
      } catch (error) {
        metrics.pollErrors.inc({ server: server.name, kind: isMediaServerError(error) ? error.kind : 'unknown' });
        metrics.serverUp.set({ server: server.name }, 0);
        logger.warn({ err: (error as Error).message, server: server.name }, 'activity monitor: /Sessions failed');
        if (!this.observing)
          await this.reachability
            .failed((error as Error).message, new Date(this.now()))
            .catch((err: unknown) => logger.warn({ err, server: server.name }, 'could not record the media server as unreachable'));
        return { ok: false, playing: (this.plays ?? []).some((p) => p.state === 'playing') };
      }
      metrics.serverUp.set({ server: server.name }, 1);
      if (!this.observing)
        await this.reachability
          .succeeded(new Date(this.now()))
          .catch((err: unknown) => logger.warn({ err, server: server.name }, 'could not record the media server as reachable'));
      const payload = liveSessionsPayload(sessions, server.kind, server.id);
      // The browsers see a change without waiting for the database (the leader's monitor tells them).
      if (!this.observing) this.deps.onSessions?.(payload);
      this.updateGauges(payload);
      try {
        const transition = await this.apply(sessions);
        return { ok: true, playing: payload.length > 0, sessions: payload, transition };
      } catch (error) {
        // The in-memory state stays (it is ahead of the database); its unsaved changes are written with the
        // next poll that reaches the database, so plays that end meanwhile keep their true times.
        metrics.pollErrors.inc({ server: server.name, kind: 'database' });
        logger.error({ err: error, server: server.name }, 'activity monitor: could not save the play state');
        return { ok: false, playing: payload.length > 0, sessions: payload };
      }
    } finally {
      stopTimer();
    }
  }

  /** The per-library counters, once the library's name is known (a read after the commit, never inside it). */
  private async countByLibrary(plays: Array<{ libraryId: string | null; isNew: boolean; seconds: number }>): Promise<void> {
    const { metrics, server, logger } = this.deps;
    try {
      for (const play of plays) {
        const labels = { server: server.name, library: await this.libraryNames.nameOf(play.libraryId) };
        if (play.isNew) metrics.libraryPlays.inc(labels);
        metrics.libraryWatchSeconds.inc(labels, play.seconds);
      }
    } catch (error) {
      logger.warn({ err: (error as Error).message, server: server.name }, 'could not count plays by library');
    }
  }

  private async apply(sessions: SessionInfo[]): Promise<Transition> {
    const { db, server, settings } = this.deps;
    const nowMs = this.now();
    if (!this.plays) {
      this.plays = await loadLivePlays(db, server.id);
      this.committed = liveStateFingerprint(this.plays);
    }
    const rules = await settings.get('ACTIVITY_RECORDING_RULES');
    const samples = sampleSessions(sessions, server.kind, nowMs);
    const idleSessions = new Map<string, number>();
    for (const session of sessions) if (!session.NowPlayingItem?.Id) idleSessions.set(session.Id, reportTime(session, nowMs));
    const newPlays = await this.classifier.classify(playsToStart(this.plays, samples)).catch((error: unknown) => {
      // Without the database a new play's library and exclusion are unknown: it starts unclassified rather
      // than late, so its start time stays true.
      this.deps.logger.warn({ err: (error as Error).message, server: server.name }, 'activity monitor: could not classify new plays');
      return new Map<string, NewPlayInfo>();
    });
    const transition = reconcile(
      this.plays,
      { nowMs, samples, idleSessions, newPlays },
      { minimumPlaySeconds: rules.minimumPlaySeconds, mergeWindowMs: rules.mergeWindowMinutes * 60_000 },
    );
    this.plays = transition.plays;
    const changed = transition.upserts.length > 0 || transition.deletes.length > 0 || transition.writes.length > 0;
    if (!changed && this.unsaved.isEmpty()) {
      this.afterCommit(transition, { inserted: [], extended: [] });
      return transition;
    }
    this.unsaved.add(transition);
    if (this.observing) return transition;
    await this.saveUnsaved();
    return transition;
  }

  /**
   * Writes every change not yet in the database (this poll's, and those of polls whose write failed) in one
   * transaction, so plays that ended while the database was away keep their true times.
   */
  private async saveUnsaved(): Promise<void> {
    const { db, server } = this.deps;
    const { upserts, deletes, writes, started } = this.unsaved.changes();
    let stale: LivePlay[] | undefined;
    const written = await db.sequelize.transaction(async (transaction) => {
      await lockServerPlays(db, server.id, transaction);
      if (this.verifyBeforeWrite) {
        const stored = await loadLivePlays(db, server.id, transaction);
        if (liveStateFingerprint(stored) !== this.committed) {
          stale = stored;
          return undefined;
        }
      }
      await saveLivePlays(db, server.id, upserts, deletes, transaction);
      // Here a play's history row is inserted (it ended) or extended (it was resumed and ended again).
      const result = await writeHistory(
        db,
        writes.map(({ play }) => toPlayToRecord(server.id, play)),
        transaction,
        { extendOnly: new Set(writes.filter((w) => w.extension).map((w) => w.play.playKey)) },
      );
      // The outbox, in the same transaction: a playback webhook exists exactly when what it announces was
      // committed, and only for rows this write really inserted or extended (not a failover's duplicate).
      const writtenKeys = new Set([...result.inserted, ...result.extended].map((play) => play.playKey));
      await enqueueWebhookEvents(
        db,
        transaction,
        playbackWebhookEvents(
          { id: server.id, name: server.name },
          started,
          writes.map((w) => w.play).filter((play) => writtenKeys.has(play.playKey)),
          this.now(),
        ),
      );
      return result;
    });
    this.verifyBeforeWrite = false;
    if (stale || !written) {
      this.deps.logger.warn(
        { server: server.name },
        'activity monitor: another leader wrote the live state meanwhile; carrying on from the database, not from memory',
      );
      this.plays = stale;
      this.committed = liveStateFingerprint(stale ?? []);
      this.unsaved = new UnsavedChanges();
      return;
    }
    this.committed = liveStateFingerprint(this.plays ?? []);
    this.afterCommit(this.unsaved.take(), written);
  }

  private afterCommit(transition: Pick<Transition, 'writes' | 'started' | 'ended'>, written: HistoryWrite): void {
    const { metrics, server, bus, logger } = this.deps;
    // Counted from what the database did, so a write another monitor already made (failover) is not counted twice.
    const orders = new Map(transition.writes.map((w) => [w.play.playKey, w]));
    const byLibrary: Array<{ libraryId: string | null; isNew: boolean; seconds: number }> = [];
    for (const [rows, isNew] of [
      [written.inserted, true],
      [written.extended, false],
    ] as const) {
      for (const row of rows) {
        const order = orders.get(row.playKey);
        if (!order) continue;
        const labels = { server: server.name, play_method: order.play.snapshot.playMethod };
        const seconds = Math.max(0, row.playedSeconds - (isNew ? 0 : Math.round(order.previousSeconds)));
        if (isNew) metrics.plays.inc(labels);
        metrics.watchSeconds.inc(labels, seconds);
        byLibrary.push({ libraryId: row.libraryId, isNew, seconds });
      }
    }
    if (byLibrary.length > 0) void this.countByLibrary(byLibrary);
    // One 'history' event per commit, for every play this poll wrote or extended.
    void publishHistoryChange(bus, historyChange(server.id, [...written.inserted, ...written.extended]), logger);
    const publish = (channel: string, message: unknown) =>
      bus.publish(channel, message).catch((error: unknown) => logger.warn({ err: error, channel }, 'could not publish a playback event'));
    for (const { play, resumed } of transition.started) {
      if (play.excluded === null) void publish(PLAYBACK_STARTED_CHANNEL, playbackEvent(server.id, play, { resumed }));
    }
    for (const play of transition.ended) {
      if (play.excluded !== null) continue;
      void publish(
        PLAYBACK_ENDED_CHANNEL,
        playbackEvent(server.id, play, {
          endedAt: new Date(play.endedAtMs ?? play.lastReportAtMs).toISOString(),
          playedSeconds: Math.round(play.playedSeconds),
          pausedSeconds: Math.round(play.pausedSeconds),
          completed: play.completed,
          excluded: play.excluded,
        }),
      );
    }
  }

  private updateGauges(payload: LiveSession[]): void {
    const { metrics, server } = this.deps;
    const counts = new Map<string, number>(PLAY_METHODS.map((m) => [m, 0]));
    let transcodes = 0;
    let bitrate = 0;
    for (const session of payload) {
      counts.set(session.PlayState.PlayMethod, (counts.get(session.PlayState.PlayMethod) ?? 0) + 1);
      if (session.TranscodingInfo) transcodes++;
      bitrate += session.TranscodingInfo?.Bitrate ?? session.NowPlayingItem.Bitrate ?? 0;
    }
    for (const [method, count] of counts) metrics.sessions.set({ server: server.name, play_method: method }, count);
    metrics.transcodes.set({ server: server.name }, transcodes);
    metrics.streamBitrate.set({ server: server.name }, bitrate);
  }
}

/** What identifies a live state for the take-over check: each play, its state and its last report (to the ms). */
export function liveStateFingerprint(plays: readonly LivePlay[]): string {
  return plays
    .map((play) => `${play.playKey}|${play.state}|${Math.floor(play.lastReportAtMs)}|${play.segments}`)
    .sort()
    .join('\n');
}

export function toPlayToRecord(serverId: string, play: LivePlay): PlayToRecord {
  const s = play.snapshot;
  return {
    serverId,
    playKey: play.playKey,
    source: 'monitor',
    userId: play.userId,
    userName: s.userName,
    itemId: play.itemId,
    itemName: s.itemName,
    itemType: s.itemType,
    seriesId: s.seriesId,
    seriesName: s.seriesName,
    seasonId: s.seasonId,
    seasonNumber: s.seasonNumber,
    episodeNumber: s.episodeNumber,
    libraryId: s.libraryId,
    client: s.client,
    deviceName: s.deviceName,
    deviceId: s.deviceId,
    applicationVersion: s.applicationVersion,
    remoteEndPoint: s.remoteEndPoint,
    playMethod: s.playMethod,
    transcodingInfo: s.transcodingInfo,
    streamDetails: s.streamDetails ? { ...s.streamDetails, ReportedPlayMethod: s.reportedPlayMethod } : null,
    startedAt: new Date(play.startedAtMs),
    endedAt: play.endedAtMs === null ? null : new Date(play.endedAtMs),
    playedSeconds: play.playedSeconds,
    pausedSeconds: play.pausedSeconds,
    startPositionTicks: play.startPositionTicks,
    endPositionTicks: play.positionTicks,
    runTimeTicks: s.runTimeTicks,
  };
}
