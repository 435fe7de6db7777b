import type { PlaybackData, WebhookEvent, WebhookServer } from '../webhooks/webhook-events.js';
import type { LivePlay } from './play-state-machine.js';

/** A play as the playback webhooks describe it (SPEC.md §3 events playback_started and playback_ended). */
function playbackData(play: LivePlay, ended: boolean): PlaybackData {
  const s = play.snapshot;
  return {
    play_key: play.playKey,
    user: { id: play.userId, name: s.userName },
    item: {
      id: play.itemId,
      name: s.itemName,
      type: s.itemType,
      series_name: s.seriesName,
      season_number: s.seasonNumber,
      episode_number: s.episodeNumber,
    },
    library_id: s.libraryId,
    client: s.client,
    device_name: s.deviceName,
    play_method: s.playMethod,
    started_at: new Date(play.startedAtMs).toISOString(),
    ...(ended
      ? {
          ended_at: new Date(play.endedAtMs ?? play.lastReportAtMs).toISOString(),
          played_seconds: Math.round(play.playedSeconds),
          paused_seconds: Math.round(play.pausedSeconds),
        }
      : {}),
  };
}

/**
 * The webhook events of one poll: a play that starts (not a resume of a play within the merge window, not an
 * excluded one) and a play whose history row is written now (the finished play, once).
 */
export function playbackWebhookEvents(
  server: WebhookServer,
  started: ReadonlyArray<{ play: LivePlay; resumed: boolean }>,
  recorded: readonly LivePlay[],
  nowMs: number,
): Array<WebhookEvent & { event: 'playback_started' | 'playback_ended' }> {
  const occurredAt = new Date(nowMs).toISOString();
  return [
    ...started
      .filter(({ play, resumed }) => !resumed && play.excluded === null)
      .map(({ play }) => ({ event: 'playback_started' as const, server, occurred_at: occurredAt, data: playbackData(play, false) })),
    ...recorded.map((play) => ({ event: 'playback_ended' as const, server, occurred_at: occurredAt, data: playbackData(play, true) })),
  ];
}
