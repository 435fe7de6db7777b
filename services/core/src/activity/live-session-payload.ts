import type { LiveSession } from '@reelstat/contract';
import type { SessionInfo } from '../media-server/schemas/session.js';
import type { MediaServerKind } from '../media-servers/media-server-links.js';
import { displayPlayMethod } from './play-method.js';
import { specMediaStream } from './session-sample.js';
import { sumBitrates } from './stream-facts.js';

/** SPEC.md §3 Session for the `sessions` socket event: only sessions with a now-playing item, sorted by Id. */
export function liveSessionsPayload(sessions: readonly SessionInfo[], kind: MediaServerKind, serverId: string): LiveSession[] {
  return sessions
    .filter((session) => session.NowPlayingItem?.Id)
    .map((session) => toLiveSession(session, kind, serverId))
    .sort((a, b) => (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0));
}

function toLiveSession(session: SessionInfo, kind: MediaServerKind, serverId: string): LiveSession {
  const item = session.NowPlayingItem!;
  const state = session.PlayState;
  const transcoding = session.TranscodingInfo;
  return {
    Id: session.Id,
    UserId: session.UserId,
    UserName: session.UserName,
    UserPrimaryImageTag: session.UserPrimaryImageTag,
    Client: session.Client,
    DeviceName: session.DeviceName,
    ApplicationVersion: session.ApplicationVersion,
    RemoteEndPoint: session.RemoteEndPoint,
    ServerId: serverId,
    PlayState: {
      PositionTicks: state?.PositionTicks,
      IsPaused: state?.IsPaused === true,
      AudioStreamIndex: state?.AudioStreamIndex,
      SubtitleStreamIndex: state?.SubtitleStreamIndex,
      PlayMethod: displayPlayMethod(kind, state?.PlayMethod, transcoding !== undefined),
    },
    TranscodingInfo: transcoding && {
      Container: transcoding.Container,
      IsVideoDirect: transcoding.IsVideoDirect,
      IsAudioDirect: transcoding.IsAudioDirect,
      VideoCodec: transcoding.VideoCodec,
      AudioCodec: transcoding.AudioCodec,
      AudioChannels: transcoding.AudioChannels,
      Height: transcoding.Height,
      Width: transcoding.Width,
      Bitrate: transcoding.Bitrate,
      AudioBitrate: transcoding.AudioBitrate,
      TranscodeReasons: transcoding.TranscodeReasons,
    },
    NowPlayingItem: {
      Id: item.Id!,
      SeriesId: item.SeriesId,
      SeriesName: item.SeriesName,
      Name: item.Name,
      Type: item.Type,
      Container: item.Container,
      RunTimeTicks: item.RunTimeTicks,
      Bitrate: sumBitrates(item.MediaStreams ?? []),
      MediaStreams: (item.MediaStreams ?? []).map(specMediaStream),
      Artists: item.Artists,
      ParentIndexNumber: item.ParentIndexNumber,
      IndexNumber: item.IndexNumber,
      CurrentProgram: (item as { CurrentProgram?: unknown }).CurrentProgram,
    },
  };
}
