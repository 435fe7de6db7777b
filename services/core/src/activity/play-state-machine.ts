/**
 * The play state machine: turns successive /Sessions observations into plays. Pure (no I/O, no clock), so
 * the monitor, its tests and a failover all get the same answer from the same inputs.
 *
 *   (none) ──now-playing item appears──► playing ──item gone / session gone / other item──► ended
 *   ended ──same user resumes the same item within the merge window──► playing (same play)
 *   ended ──completed, window over, or merging off──► final (forgotten from the live state)
 *
 * Write at the end, extend on resume: a play gets its history row the moment it ends (when it is not excluded
 * and has reached the minimum length), not when its merge window closes. A resumed play that ends again
 * extends that same row. The minimum is judged on the merged play: a 20 s play is not written, but once a
 * resume makes it 40 s it is, once. `recordedSeconds` remembers what the history row holds.
 *
 * Time is counted on the media server's report clock: /Sessions only changes when a client reports
 * (MEDIA_SERVER_CONTRACT.md §10), and pause, resume and seek are reported at once, so the time between two
 * reports belongs to the state of the earlier one. That makes played seconds independent of the poll rate.
 */
import type { PlaySnapshot, SessionSample } from './session-sample.js';

/** jellyfin-web reports progress every 10 s; a play that goes silent is credited at most this much after its last report. */
export const REPORT_INTERVAL_MS = 10_000;
const TICKS_PER_SECOND = 10_000_000;
/** A play that reached 90 % of its runtime is complete (Jellyfin's MaxResumePct): it cannot be resumed, so it is recorded at once. */
const COMPLETE_FRACTION = 0.9;

export type PlayState = 'playing' | 'ended';

export interface LivePlay {
  playKey: string;
  sessionId: string;
  userId: string;
  itemId: string;
  state: PlayState;
  startedAtMs: number;
  /** Server time of the last report this play's counters include. */
  lastReportAtMs: number;
  /** Our time of the last poll that saw it playing. */
  lastSeenAtMs: number;
  positionTicks: number | null;
  startPositionTicks: number | null;
  isPaused: boolean;
  playedSeconds: number;
  pausedSeconds: number;
  endedAtMs: number | null;
  completed: boolean;
  /** Why this play will not be recorded (untracked user or library, theme media, trailer); null = recorded. */
  excluded: string | null;
  /** How many resumed segments make up this play. */
  segments: number;
  /** Played seconds of this play's history row; null while it has none (playing, too short so far, excluded). */
  recordedSeconds: number | null;
  snapshot: PlaySnapshot;
}

/** A history write this observation asks for: a first row, or the extension of the row a resumed play already has. */
export interface HistoryWriteOrder {
  play: LivePlay;
  /** The play already has a row (extend it, never insert it again). */
  extension: boolean;
  /** Played seconds the row held before (0 for a first row). */
  previousSeconds: number;
}

export interface RecordingRules {
  minimumPlaySeconds: number;
  /** 0 disables merging of resumed plays. */
  mergeWindowMs: number;
}

/** What the monitor found out about a play that is about to start (asynchronously, before reconcile). */
export interface NewPlayInfo {
  libraryId: string | null;
  excluded: string | null;
}

export interface Observation {
  nowMs: number;
  /** Sessions with a now-playing item. */
  samples: readonly SessionSample[];
  /** Sessions without a now-playing item, with their last report time (a stop is a report). */
  idleSessions: ReadonlyMap<string, number>;
  /** For each sample that starts a play (see playsToStart), keyed by newPlayKeyOf. */
  newPlays: ReadonlyMap<string, NewPlayInfo>;
}

export interface FinalPlay {
  play: LivePlay;
  /** null = in the history; else why it never got a row. */
  dropped: string | null;
}

export interface Transition {
  /** The live state after this observation (playing and resumable ended plays). */
  plays: LivePlay[];
  /** New or changed plays to write. */
  upserts: LivePlay[];
  /** Play keys to delete from the live state. */
  deletes: string[];
  started: Array<{ play: LivePlay; resumed: boolean }>;
  ended: LivePlay[];
  /** Plays that leave the live state. */
  finals: FinalPlay[];
  /** History rows to insert or extend, in the same transaction as the live state. */
  writes: HistoryWriteOrder[];
}

export function newPlayKeyOf(sample: Pick<SessionSample, 'sessionId' | 'itemId'>): string {
  return `${sample.sessionId}\u0000${sample.itemId}`;
}

/** Samples that will start a play at this observation (their library and exclusion must be looked up first). */
export function playsToStart(plays: readonly LivePlay[], samples: readonly SessionSample[]): SessionSample[] {
  const playing = new Map<string, LivePlay>();
  for (const play of plays) if (play.state === 'playing') playing.set(play.sessionId, play);
  return samples.filter((sample) => playing.get(sample.sessionId)?.itemId !== sample.itemId);
}

export function reconcile(previous: readonly LivePlay[], observation: Observation, rules: RecordingRules): Transition {
  const { nowMs } = observation;
  const plays = previous.map((play) => ({ ...play }));
  const changed = new Set<LivePlay>();
  const started: Transition['started'] = [];
  const ended: LivePlay[] = [];
  const playingBySession = new Map<string, LivePlay>();
  for (const play of plays) if (play.state === 'playing') playingBySession.set(play.sessionId, play);

  // Plays whose session no longer plays anything end first, so a user who moves to another device within one
  // poll resumes the play that just ended.
  const sampledSessions = new Set(observation.samples.map((sample) => sample.sessionId));
  for (const play of plays) {
    if (play.state !== 'playing' || sampledSessions.has(play.sessionId)) continue;
    // Stopped (the session stays, and its stop was a report) or gone (vanished client, server restart): the
    // stop report gives the time; otherwise it happened between the last poll that saw it and this one.
    const stopReport = observation.idleSessions.get(play.sessionId);
    const at = stopReport !== undefined && stopReport >= play.lastReportAtMs ? stopReport : (play.lastSeenAtMs + nowMs) / 2;
    end(play, at);
    ended.push(play);
    changed.add(play);
    playingBySession.delete(play.sessionId);
  }

  for (const sample of observation.samples) {
    const current = playingBySession.get(sample.sessionId);
    if (current && current.itemId === sample.itemId) {
      if (advance(current, sample, nowMs)) changed.add(current);
      continue;
    }
    if (current) {
      // Another item on the same session (autoplay of the next episode, or a new choice between two polls):
      // the old play ended when the new one was reported.
      end(current, sample.reportAtMs);
      ended.push(current);
      changed.add(current);
    }
    const info = observation.newPlays.get(newPlayKeyOf(sample)) ?? { libraryId: null, excluded: null };
    const resumable = info.excluded === null && rules.mergeWindowMs > 0 ? findResumable(plays, sample, rules.mergeWindowMs) : undefined;
    let play: LivePlay;
    if (resumable) {
      play = resumable;
      play.state = 'playing';
      play.sessionId = sample.sessionId;
      play.lastReportAtMs = sample.reportAtMs;
      play.positionTicks = sample.positionTicks;
      play.isPaused = sample.isPaused;
      play.endedAtMs = null;
      play.completed = false;
      play.segments += 1;
      play.snapshot = { ...sample.snapshot, libraryId: play.snapshot.libraryId ?? info.libraryId };
    } else {
      play = {
        playKey: `m:${sample.sessionId}:${sample.itemId}:${sample.reportAtMs}`,
        sessionId: sample.sessionId,
        userId: sample.userId,
        itemId: sample.itemId,
        state: 'playing',
        startedAtMs: sample.reportAtMs,
        lastReportAtMs: sample.reportAtMs,
        lastSeenAtMs: nowMs,
        positionTicks: sample.positionTicks,
        startPositionTicks: sample.positionTicks,
        isPaused: sample.isPaused,
        playedSeconds: 0,
        pausedSeconds: 0,
        endedAtMs: null,
        completed: false,
        excluded: info.excluded,
        segments: 1,
        recordedSeconds: null,
        snapshot: { ...sample.snapshot, libraryId: info.libraryId },
      };
      plays.push(play);
    }
    play.lastSeenAtMs = nowMs;
    playingBySession.set(sample.sessionId, play);
    changed.add(play);
    started.push({ play, resumed: resumable !== undefined });
  }

  // Every play that is 'ended' now and whose history row is missing or behind gets written. That covers the
  // plays that just ended and, after an upgrade, ended plays whose row was still held back by the window.
  const writes: HistoryWriteOrder[] = [];
  for (const play of plays) {
    if (play.state !== 'ended' || play.excluded !== null || play.playedSeconds < rules.minimumPlaySeconds) continue;
    if (play.recordedSeconds !== null && !changed.has(play)) continue;
    writes.push({ play, extension: play.recordedSeconds !== null, previousSeconds: play.recordedSeconds ?? 0 });
    play.recordedSeconds = play.playedSeconds;
    changed.add(play);
  }

  const finals: FinalPlay[] = [];
  const kept: LivePlay[] = [];
  for (const play of plays) {
    if (play.state === 'ended') {
      const final =
        play.excluded !== null || play.completed || rules.mergeWindowMs <= 0 || nowMs - (play.endedAtMs ?? nowMs) > rules.mergeWindowMs;
      if (final) {
        finals.push({
          play,
          dropped: play.excluded ?? (play.recordedSeconds === null ? 'shorter than the minimum' : null),
        });
        continue;
      }
    }
    kept.push(play);
  }
  const finalKeys = new Set(finals.map((f) => f.play.playKey));
  const previousKeys = new Set(previous.map((p) => p.playKey));
  return {
    plays: kept,
    // Ended plays first: a session's next play may only become 'playing' once its previous one is 'ended'.
    upserts: [...changed]
      .filter((play) => !finalKeys.has(play.playKey))
      .sort((a, b) => (a.state === b.state ? 0 : a.state === 'ended' ? -1 : 1)),
    deletes: [...finalKeys].filter((key) => previousKeys.has(key)),
    started,
    ended,
    finals,
    writes,
  };
}

/** Applies a sample of a play already playing; true when something worth writing changed. */
function advance(play: LivePlay, sample: SessionSample, nowMs: number): boolean {
  let reportAt = sample.reportAtMs;
  const stateChanged = sample.isPaused !== play.isPaused || sample.positionTicks !== play.positionTicks;
  if (stateChanged && reportAt <= play.lastReportAtMs) {
    // A server that changed the play state without a newer report time: it changed between the two polls.
    reportAt = Math.max(play.lastReportAtMs, (play.lastSeenAtMs + nowMs) / 2);
  }
  play.lastSeenAtMs = nowMs;
  if (reportAt <= play.lastReportAtMs && !stateChanged) return false;
  credit(play, (reportAt - play.lastReportAtMs) / 1000);
  play.lastReportAtMs = Math.max(play.lastReportAtMs, reportAt);
  play.isPaused = sample.isPaused;
  play.positionTicks = sample.positionTicks;
  play.snapshot = { ...sample.snapshot, libraryId: play.snapshot.libraryId };
  return true;
}

function end(play: LivePlay, atMs: number): void {
  // A client that went quiet (or a server that auto-stops it minutes later) is credited at most one report
  // interval after its last report: it would have reported had it still been playing.
  const endAt = Math.min(Math.max(atMs, play.lastReportAtMs), play.lastReportAtMs + REPORT_INTERVAL_MS);
  let seconds = (endAt - play.lastReportAtMs) / 1000;
  const run = play.snapshot.runTimeTicks;
  if (!play.isPaused && run && play.positionTicks !== null) {
    // Nothing plays past the end of the item.
    seconds = Math.min(seconds, Math.max(0, (run - play.positionTicks) / TICKS_PER_SECOND));
    play.positionTicks = Math.min(run, play.positionTicks + Math.round(seconds * TICKS_PER_SECOND));
  }
  credit(play, seconds);
  play.lastReportAtMs = endAt;
  play.state = 'ended';
  play.endedAtMs = endAt;
  play.completed = run !== null && run > 0 && play.positionTicks !== null && play.positionTicks >= run * COMPLETE_FRACTION;
}

function credit(play: LivePlay, seconds: number): void {
  if (seconds <= 0) return;
  if (play.isPaused) play.pausedSeconds += seconds;
  else play.playedSeconds += seconds;
}

function findResumable(plays: readonly LivePlay[], sample: SessionSample, windowMs: number): LivePlay | undefined {
  let best: LivePlay | undefined;
  for (const play of plays) {
    if (play.state !== 'ended' || play.completed || play.excluded !== null) continue;
    if (play.userId !== sample.userId || play.itemId !== sample.itemId) continue;
    if (play.endedAtMs === null || sample.reportAtMs - play.endedAtMs > windowMs) continue;
    if (!best || (play.endedAtMs ?? 0) > (best.endedAtMs ?? 0)) best = play;
  }
  return best;
}
