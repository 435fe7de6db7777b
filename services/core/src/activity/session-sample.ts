import type { MediaStream } from '../media-server/schemas/item.js';
import type { SessionInfo } from '../media-server/schemas/session.js';
import type { PlayMethod } from '../history/record-plays.js';
import type { MediaServerKind } from '../media-servers/media-server-links.js';
import { displayPlayMethod } from './play-method.js';
import { streamFacts, sumBitrates } from './stream-facts.js';

/** SPEC.md §3 Media stream: the fields of the server's stream kept for the session card and the history row. */
export function specMediaStream(stream: MediaStream) {
  return {
    Type: stream.Type,
    Codec: stream.Codec,
    Height: stream.Height,
    Width: stream.Width,
    BitRate: stream.BitRate,
    Channels: stream.Channels,
    Language: stream.Language,
    DisplayTitle: stream.DisplayTitle,
    RealFrameRate: stream.RealFrameRate,
    VideoRange: stream.VideoRange,
    AspectRatio: stream.AspectRatio,
    Index: stream.Index,
  };
}

/** Jellyfin's LastPlaybackCheckIn for a session that never played. */
const NEVER = Date.parse('0001-01-01T00:00:00Z');

/** What a history row needs to know about a play, captured from the session while it plays. */
export interface PlaySnapshot {
  userName: string;
  itemName: string;
  itemType: string | null;
  extraType: string | null;
  seriesId: string | null;
  seriesName: string | null;
  seasonId: string | null;
  seasonNumber: number | null;
  episodeNumber: number | null;
  runTimeTicks: number | null;
  client: string | null;
  deviceName: string | null;
  deviceId: string | null;
  applicationVersion: string | null;
  remoteEndPoint: string | null;
  /** The method as Reelstat records it (SPEC.md's naming rule applied for Emby). */
  playMethod: PlayMethod;
  /** The method the server reported, kept because its meaning differs between Jellyfin and Emby. */
  reportedPlayMethod: string | null;
  transcodingInfo: Record<string, unknown> | null;
  /**
   * Stream versus source, for the stream-details modal; beside them the server's stream array and container,
   * which history rows answer as MediaStreams and OriginalContainer.
   */
  streamDetails: {
    Source: Record<string, unknown>;
    Stream: Record<string, unknown>;
    MediaStreams?: Array<ReturnType<typeof specMediaStream>>;
    OriginalContainer?: string | null;
  } | null;
  /** Bits per second the client receives (transcode bitrate, else the source's). */
  streamBitrate: number | null;
  libraryId: string | null;
}

/** One now-playing session at one poll. */
export interface SessionSample {
  sessionId: string;
  userId: string;
  itemId: string;
  /**
   * When the client last reported (server time). Play state only changes on client reports, so the time
   * between two reports is attributed to the state of the earlier one: this is what makes played seconds exact
   * whatever the poll rate.
   */
  reportAtMs: number;
  positionTicks: number | null;
  isPaused: boolean;
  snapshot: PlaySnapshot;
}

/** The report time of a session: LastPlaybackCheckIn (Jellyfin), else LastActivityDate (Emby), never after now. */
export function reportTime(session: SessionInfo, nowMs: number): number {
  const checkIn = session.LastPlaybackCheckIn ? Date.parse(session.LastPlaybackCheckIn) : Number.NaN;
  const activity = session.LastActivityDate ? Date.parse(session.LastActivityDate) : Number.NaN;
  const at = Number.isFinite(checkIn) && checkIn > NEVER ? checkIn : Number.isFinite(activity) ? activity : nowMs;
  // A media server whose clock runs ahead must not make us count time that has not happened yet.
  return Math.min(at, nowMs);
}

/** Sessions that play something for a known user, as samples; idle sessions are left out. */
export function sampleSessions(sessions: readonly SessionInfo[], kind: MediaServerKind, nowMs: number): SessionSample[] {
  const samples: SessionSample[] = [];
  for (const session of sessions) {
    const item = session.NowPlayingItem;
    if (!item?.Id || !session.UserId) continue;
    samples.push({
      sessionId: session.Id,
      userId: session.UserId,
      itemId: item.Id,
      reportAtMs: reportTime(session, nowMs),
      positionTicks: session.PlayState?.PositionTicks ?? null,
      isPaused: session.PlayState?.IsPaused === true,
      snapshot: snapshotOf(session, kind),
    });
  }
  return samples;
}

function snapshotOf(session: SessionInfo, kind: MediaServerKind): PlaySnapshot {
  const item = session.NowPlayingItem!;
  const transcoding = session.TranscodingInfo;
  const streams = item.MediaStreams ?? [];
  const sourceBitrate = sumBitrates(streams);
  const { Source: source, Stream: stream } = streamFacts({
    streams,
    container: item.Container,
    transcoding,
    audioStreamIndex: session.PlayState?.AudioStreamIndex,
  });
  const reported = session.PlayState?.PlayMethod ?? null;
  return {
    userName: session.UserName ?? session.UserId ?? '',
    itemName: item.Name ?? item.Id ?? '',
    itemType: item.Type ?? null,
    extraType: item.ExtraType ?? null,
    seriesId: item.SeriesId ?? null,
    seriesName: item.SeriesName ?? null,
    seasonId: item.SeasonId ?? null,
    seasonNumber: item.Type === 'Episode' ? (item.ParentIndexNumber ?? null) : null,
    episodeNumber: item.Type === 'Episode' ? (item.IndexNumber ?? null) : null,
    runTimeTicks: item.RunTimeTicks ?? null,
    client: session.Client ?? null,
    deviceName: session.DeviceName ?? null,
    deviceId: session.DeviceId ?? null,
    applicationVersion: session.ApplicationVersion ?? null,
    remoteEndPoint: session.RemoteEndPoint ?? null,
    playMethod: displayPlayMethod(kind, reported, transcoding !== undefined),
    reportedPlayMethod: reported,
    transcodingInfo: transcoding ? compact({ ...transcoding }) : null,
    streamDetails: {
      Source: source,
      Stream: stream,
      MediaStreams: streams.map(specMediaStream),
      OriginalContainer: item.Container ?? null,
    },
    streamBitrate: transcoding?.Bitrate ?? sourceBitrate ?? null,
    libraryId: null,
  };
}

function compact(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}
