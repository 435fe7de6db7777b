/** SessionInfoDto (Jellyfin) / Session.SessionInfo (Emby) from a simulated session. */
import { SESSION_EXCLUDE, itemDto } from '../dto.js';
import type { Flavor } from '../library/generate.js';
import type { Store } from '../library/store.js';
import { imageTag } from '../images.js';
import { MIN_DATE, formatDate } from '../wire.js';
import { SUPPORTED_COMMANDS } from './clients.js';
import type { SimSession } from './types.js';

export interface SessionDtoContext {
  flavor: Flavor;
  serverId: string;
  store: Store;
  /** Non-admin callers see HardwareAccelerationType "none". */
  callerIsAdmin: boolean;
  now: number;
  blurHashes?: boolean;
}

const IDLE_PLAY_STATE = { CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: 'RepeatNone', PlaybackOrder: 'Default' };

export function sessionDto(s: SimSession, ctx: SessionDtoContext): Record<string, unknown> {
  const jf = ctx.flavor === 'jellyfin';
  const user = s.userId ? ctx.store.users.get(s.userId) : undefined;
  const play = s.play;
  const item = play ? ctx.store.get(play.itemId) : undefined;
  const commands = s.client.supportsRemoteControl ? SUPPORTED_COMMANDS : [];
  let playState: Record<string, unknown> = jf
    ? { ...IDLE_PLAY_STATE }
    : { CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: 'RepeatNone', Shuffle: false, PlaybackRate: 1 };
  let nowPlaying: Record<string, unknown> | undefined;
  let transcoding: Record<string, unknown> | undefined;
  if (play && item) {
    playState = {
      ...playState,
      PositionTicks: play.reportedPositionTicks,
      CanSeek: true,
      IsPaused: play.reportedPaused,
      VolumeLevel: 100,
      AudioStreamIndex: play.audioStreamIndex,
      SubtitleStreamIndex: play.subtitleStreamIndex,
      MediaSourceId: item.id,
      PlayMethod: play.method,
    };
    nowPlaying = itemDto(item, {
      flavor: ctx.flavor,
      serverId: ctx.serverId,
      store: ctx.store,
      fields: new Set(),
      allFields: true,
      enableUserData: false,
      enableImages: true,
      blurHashes: ctx.blurHashes,
      exclude: SESSION_EXCLUDE,
    });
    const t = play.transcode;
    if (t) {
      const run = item.runTimeTicks ?? 1;
      transcoding = {
        AudioCodec: t.audioCodec,
        VideoCodec: t.videoCodec,
        Container: t.container,
        IsVideoDirect: t.isVideoDirect,
        IsAudioDirect: t.isAudioDirect,
        Bitrate: t.bitrate,
        Framerate: t.framerate,
        CompletionPercentage: Math.min(100, ((play.reportedPositionTicks + 600_000_000) / run) * 100),
        Width: t.width,
        Height: t.height,
        AudioChannels: t.audioChannels,
        TranscodeReasons: t.reasons,
      };
      if (jf) transcoding.HardwareAccelerationType = ctx.callerIsAdmin ? t.hardwareAccelerationType : 'none';
      else {
        const hw = t.hardwareAccelerationType !== 'none' && ctx.callerIsAdmin;
        Object.assign(transcoding, {
          VideoEncoder: t.isVideoDirect ? undefined : hw ? 'h264_vaapi' : 'libx264',
          VideoEncoderIsHardware: t.isVideoDirect ? undefined : hw,
          VideoDecoder: t.isVideoDirect ? undefined : hw ? `${t.videoCodec ?? 'h264'}_vaapi` : t.videoCodec,
          VideoDecoderIsHardware: t.isVideoDirect ? undefined : hw,
          SubProtocol: t.container === 'ts' ? 'hls' : 'progressive',
          TranscodingPositionTicks: play.reportedPositionTicks,
        });
      }
    }
  }
  const dto: Record<string, unknown> = {
    PlayState: playState,
    AdditionalUsers: [],
    RemoteEndPoint: s.remoteEndPoint,
    PlayableMediaTypes: s.client.playableMediaTypes,
    Id: s.id,
    UserId: s.userId ?? '00000000000000000000000000000000',
    UserName: user?.name,
    Client: s.client.client,
    LastActivityDate: formatDate(s.lastActivityMs),
    DeviceName: s.deviceName,
    NowPlayingItem: nowPlaying,
    DeviceId: s.deviceId,
    ApplicationVersion: s.client.appVersion,
    TranscodingInfo: transcoding,
    SupportsRemoteControl: s.client.supportsRemoteControl,
    ServerId: ctx.serverId,
    UserPrimaryImageTag: user?.hasImage ? imageTag(user.id, 'user', user.imageRevision) : undefined,
    SupportedCommands: commands,
  };
  if (jf) {
    Object.assign(dto, {
      Capabilities: {
        PlayableMediaTypes: s.client.playableMediaTypes,
        SupportedCommands: commands,
        SupportsMediaControl: s.client.supportsMediaControl,
        SupportsPersistentIdentifier: false,
      },
      LastPlaybackCheckIn: s.lastPlaybackCheckInMs !== undefined ? formatDate(s.lastPlaybackCheckInMs) : MIN_DATE,
      LastPausedDate: s.lastPausedMs !== undefined ? formatDate(s.lastPausedMs) : undefined,
      IsActive: true,
      SupportsMediaControl: s.client.supportsMediaControl,
      NowPlayingQueue: play ? [{ Id: play.itemId, PlaylistItemId: 'playlistItem0' }] : [],
      NowPlayingQueueFullItems: [],
      HasCustomDeviceName: false,
      PlaylistItemId: play ? 'playlistItem0' : undefined,
    });
  } else {
    Object.assign(dto, {
      InternalDeviceId: s.internalDeviceId,
      Protocol: s.client.supportsRemoteControl ? 'WebSocket' : 'Http',
      PlaylistIndex: play ? 0 : undefined,
      PlaylistLength: play ? 1 : undefined,
      AppIconUrl: `https://raw.githubusercontent.com/MediaBrowser/Emby.Resources/master/images/devices/${s.client.key}.png`,
    });
  }
  return dto;
}
