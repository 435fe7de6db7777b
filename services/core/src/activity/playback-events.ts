import type { PlayMethod } from '../history/record-plays.js';
import type { LivePlay } from './play-state-machine.js';

/** Bus channels of the activity monitor's domain events (webhooks subscribe to them). */
export const PLAYBACK_STARTED_CHANNEL = 'playback_started';
export const PLAYBACK_ENDED_CHANNEL = 'playback_ended';

export interface PlaybackEvent {
  serverId: string;
  playKey: string;
  sessionId: string;
  userId: string;
  userName: string;
  itemId: string;
  itemName: string;
  itemType: string | null;
  seriesName: string | null;
  seasonNumber: number | null;
  episodeNumber: number | null;
  client: string | null;
  deviceName: string | null;
  playMethod: PlayMethod;
  startedAt: string;
  /** True when a stopped play was resumed within the merge window (it continues the same play). */
  resumed?: boolean;
  /** playback_ended only. */
  endedAt?: string;
  playedSeconds?: number;
  pausedSeconds?: number;
  completed?: boolean;
  /** playback_ended only: why the play will not be recorded (untracked user, theme media…), if so. */
  excluded?: string | null;
}

export function playbackEvent(serverId: string, play: LivePlay, extra: Partial<PlaybackEvent> = {}): PlaybackEvent {
  const s = play.snapshot;
  return {
    serverId,
    playKey: play.playKey,
    sessionId: play.sessionId,
    userId: play.userId,
    userName: s.userName,
    itemId: play.itemId,
    itemName: s.itemName,
    itemType: s.itemType,
    seriesName: s.seriesName,
    seasonNumber: s.seasonNumber,
    episodeNumber: s.episodeNumber,
    client: s.client,
    deviceName: s.deviceName,
    playMethod: s.playMethod,
    startedAt: new Date(play.startedAtMs).toISOString(),
    ...extra,
  };
}
