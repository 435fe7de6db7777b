/** SessionInfoDto (Jellyfin) / Session.SessionInfo (Emby) with play state and transcoding details. */
import { z } from 'zod';
import { baseItemDtoSchema, mediaStreamSchema } from './item.js';
import { EMPTY_GUID, int, wireDate } from './wire.js';

export const playerStateInfoSchema = z.object({
  PositionTicks: int.optional(),
  CanSeek: z.boolean().optional(),
  IsPaused: z.boolean().optional(),
  IsMuted: z.boolean().optional(),
  VolumeLevel: int.optional(),
  AudioStreamIndex: int.optional(),
  SubtitleStreamIndex: int.optional(),
  MediaSourceId: z.string().optional(),
  /** Transcode, DirectStream, DirectPlay (same values on both servers, different meanings: contract §5, §7). */
  PlayMethod: z.string().optional(),
  RepeatMode: z.string().optional(),
  /** Jellyfin only. */
  PlaybackOrder: z.string().optional(),
  LiveStreamId: z.string().optional(),
  /** Emby only. */
  Shuffle: z.boolean().optional(),
  PlaybackRate: z.number().optional(),
  SubtitleOffset: z.number().optional(),
});
export type PlayerStateInfo = z.infer<typeof playerStateInfoSchema>;

/** A flags enum written as an array of strings; very old servers wrote one comma-separated string. */
const transcodeReasons = z.union([
  z.array(z.string()),
  z.string().transform((s) =>
    s
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r.length > 0),
  ),
]);

export const transcodingInfoSchema = z.object({
  AudioCodec: z.string().optional(),
  VideoCodec: z.string().optional(),
  Container: z.string().optional(),
  IsVideoDirect: z.boolean().optional(),
  IsAudioDirect: z.boolean().optional(),
  Bitrate: int.optional(),
  Framerate: z.number().optional(),
  CompletionPercentage: z.number().optional(),
  Width: int.optional(),
  Height: int.optional(),
  AudioChannels: int.optional(),
  /** Jellyfin only: none, amf, qsv, nvenc, v4l2m2m, vaapi, videotoolbox, rkmpp. */
  HardwareAccelerationType: z.string().optional(),
  TranscodeReasons: transcodeReasons.optional(),
  /** Emby only. */
  VideoEncoder: z.string().optional(),
  VideoDecoder: z.string().optional(),
  VideoEncoderIsHardware: z.boolean().optional(),
  VideoDecoderIsHardware: z.boolean().optional(),
  VideoBitrate: int.optional(),
  AudioBitrate: int.optional(),
  SubProtocol: z.string().optional(),
  TranscodingPositionTicks: int.optional(),
});
export type TranscodingInfo = z.infer<typeof transcodingInfoSchema>;

/**
 * The now-playing item with only what the activity monitor and the live sessions read. /Sessions is parsed
 * every second (2.9 MB for 500 sessions, mostly item details): validating and copying the whole BaseItemDto
 * each time was most of the monitor's CPU and garbage, for fields nobody used. Unknown keys are dropped.
 */
export const nowPlayingItemSchema = baseItemDtoSchema
  .pick({
    Id: true,
    Name: true,
    Type: true,
    ExtraType: true,
    SeriesId: true,
    SeriesName: true,
    SeasonId: true,
    IndexNumber: true,
    ParentIndexNumber: true,
    RunTimeTicks: true,
    Container: true,
    Artists: true,
  })
  .extend({
    MediaStreams: z
      .array(
        mediaStreamSchema.pick({
          Type: true,
          Index: true,
          Codec: true,
          Language: true,
          DisplayTitle: true,
          BitRate: true,
          Width: true,
          Height: true,
          RealFrameRate: true,
          AspectRatio: true,
          VideoRange: true,
          Channels: true,
        }),
      )
      .optional(),
  });
export type NowPlayingItem = z.infer<typeof nowPlayingItemSchema>;

export const sessionInfoSchema = z.object({
  Id: z.string().min(1),
  /** Undefined for sessions without a user (the server writes Guid.Empty). */
  UserId: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' || v === EMPTY_GUID ? undefined : v)),
  UserName: z.string().optional(),
  UserPrimaryImageTag: z.string().optional(),
  AdditionalUsers: z.array(z.object({ UserId: z.string(), UserName: z.string().optional() })).optional(),
  Client: z.string().optional(),
  DeviceName: z.string().optional(),
  DeviceId: z.string().optional(),
  DeviceType: z.string().optional(),
  ApplicationVersion: z.string().optional(),
  RemoteEndPoint: z.string().optional(),
  LastActivityDate: wireDate.optional(),
  /** Jellyfin only; 0001-01-01T00:00:00.0000000Z when the session never played. */
  LastPlaybackCheckIn: wireDate.optional(),
  LastPausedDate: wireDate.optional(),
  IsActive: z.boolean().optional(),
  SupportsMediaControl: z.boolean().optional(),
  SupportsRemoteControl: z.boolean().optional(),
  PlayableMediaTypes: z.array(z.string()).optional(),
  NowPlayingItem: nowPlayingItemSchema.optional(),
  PlayState: playerStateInfoSchema.optional(),
  TranscodingInfo: transcodingInfoSchema.optional(),
  PlaylistItemId: z.string().optional(),
  ServerId: z.string().optional(),
  /** Emby only. */
  InternalDeviceId: int.optional(),
  Protocol: z.string().optional(),
  PlaylistIndex: int.optional(),
  PlaylistLength: int.optional(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
