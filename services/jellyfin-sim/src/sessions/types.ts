import type { ClientProfile } from './clients.js';

export type PlayMethod = 'DirectPlay' | 'DirectStream' | 'Transcode';

export type EndReason = 'stopped' | 'autoplay-next' | 'vanished' | 'auto-stopped' | 'server-restart';

/** Ground truth: one record per play the simulator produced, kept after the play ends. */
export interface PlayRecord {
  playId: string;
  sessionId: string;
  userId: string;
  userName: string;
  itemId: string;
  itemName: string;
  itemType: string;
  /** Set for theme songs/videos and local trailers, which a statistics app should ignore. */
  extraType?: string;
  client: string;
  deviceName: string;
  deviceId: string;
  remoteEndPoint: string;
  playMethod: PlayMethod;
  isVideoDirect?: boolean;
  isAudioDirect?: boolean;
  transcodeReasons?: string[];
  /** ISO dates with 7 fractional digits, plus epoch ms for arithmetic. */
  startedAt: string;
  startedAtMs: number;
  endedAt?: string;
  endedAtMs?: number;
  /** When the server noticed the end (differs from endedAt for auto-stops). */
  serverStoppedAtMs?: number;
  secondsUnpaused: number;
  secondsPaused: number;
  pauseCount: number;
  seekCount: number;
  startPositionTicks: number;
  endPositionTicks?: number;
  runTimeTicks?: number;
  endReason?: EndReason;
  /** true when playback reached the end of the item. */
  completed: boolean;
  active: boolean;
  /** rowid of the Playback Reporting row for this play. */
  playbackReportingRowId?: number;
}

export interface TranscodeSpec {
  videoCodec?: string;
  audioCodec: string;
  container: string;
  isVideoDirect: boolean;
  isAudioDirect: boolean;
  bitrate: number;
  framerate?: number;
  width?: number;
  height?: number;
  audioChannels: number;
  hardwareAccelerationType: string;
  reasons: string[];
}

export interface ActivePlay {
  record: PlayRecord;
  itemId: string;
  method: PlayMethod;
  transcode?: TranscodeSpec;
  audioStreamIndex?: number;
  subtitleStreamIndex?: number;
  /** True timeline: position at `anchorMs`, advancing in real (clock) time while not paused. */
  anchorPositionTicks: number;
  anchorMs: number;
  paused: boolean;
  pausedSinceMs?: number;
  /** Last state the client reported: what /Sessions shows. */
  reportedPositionTicks: number;
  reportedPaused: boolean;
  lastReportingUpdateMs: number;
  /** Client went quiet without closing: no more reports, the server will auto-stop it. */
  silent: boolean;
  autoplay: boolean;
  /** Driven by a real client over /Sessions/Playing*: the simulator schedules no reports and no end. */
  external: boolean;
  /** Items to play next in this session (pre-roll chain), before any next-episode autoplay. */
  queue: string[];
  progressTimer?: { id: number };
  endTimer?: { id: number };
}

export interface SimSession {
  id: string;
  userId?: string;
  client: ClientProfile;
  deviceId: string;
  deviceName: string;
  remoteEndPoint: string;
  internalDeviceId: number;
  lastActivityMs: number;
  lastPlaybackCheckInMs?: number;
  lastPausedMs?: number;
  play?: ActivePlay;
}
