import { z } from 'zod';

/** SPEC.md §5: the activity monitor's polling intervals, in ms. */
export const ACTIVITY_INTERVAL_LIMITS = {
  activeSessionsInterval: { min: 500, max: 10_000, step: 100, recommended: 1000 },
  idleInterval: { min: 1000, max: 30_000, step: 1000, recommended: 5000 },
} as const;

/** Recording rules (Reelstat's own settings, beside SPEC.md's intervals). */
export const ACTIVITY_RECORDING_LIMITS = {
  /** Plays with fewer played (unpaused) seconds are not recorded. */
  minimumPlaySeconds: { min: 0, max: 600, default: 30 },
  /** A stopped play resumed by the same user on the same item within this many minutes continues as one play; 0 = off. */
  mergeWindowMinutes: { min: 0, max: 1440, default: 10 },
} as const;

function stepped(name: string, limits: { min: number; max: number; step: number }) {
  return z
    .number({ error: `${name} must be a number of milliseconds` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(limits.min, `${name} must be at least ${limits.min} ms`)
    .max(limits.max, `${name} must be at most ${limits.max} ms`)
    .refine((value) => value % limits.step === 0, `${name} must be a multiple of ${limits.step} ms`);
}

function bounded(name: string, unit: string, limits: { min: number; max: number }) {
  return z
    .number({ error: `${name} must be a number of ${unit}` })
    .int(`${name} must be a whole number of ${unit}`)
    .min(limits.min, `${name} must be at least ${limits.min} ${unit}`)
    .max(limits.max, `${name} must be at most ${limits.max} ${unit}`);
}

export const activityIntervals = z.object({
  activeSessionsInterval: stepped('activeSessionsInterval', ACTIVITY_INTERVAL_LIMITS.activeSessionsInterval),
  idleInterval: stepped('idleInterval', ACTIVITY_INTERVAL_LIMITS.idleInterval),
});
export type ActivityIntervals = z.infer<typeof activityIntervals>;

export const activityRecordingRules = z.object({
  minimumPlaySeconds: bounded('minimumPlaySeconds', 'seconds', ACTIVITY_RECORDING_LIMITS.minimumPlaySeconds),
  mergeWindowMinutes: bounded('mergeWindowMinutes', 'minutes', ACTIVITY_RECORDING_LIMITS.mergeWindowMinutes),
});
export type ActivityRecordingRules = z.infer<typeof activityRecordingRules>;

/** GET /api/getActivityMonitorSettings: SPEC.md's two intervals plus the recording rules. */
export const activityMonitorSettingsAnswer = activityIntervals.extend(activityRecordingRules.shape);
export type ActivityMonitorSettings = z.infer<typeof activityMonitorSettingsAnswer>;

/** POST /api/setActivityMonitorSettings: the two intervals (SPEC.md), the recording rules optional. */
export const activityMonitorSettingsBody = activityIntervals.extend(activityRecordingRules.partial().shape);
export type ActivityMonitorSettingsBody = z.infer<typeof activityMonitorSettingsBody>;

export const setActivityMonitorSettingsAnswer = activityMonitorSettingsAnswer.extend({ message: z.string() });

/** GET /api/UntrackedUsers and the answer of POST /api/setUntrackedUsers: ids of users whose plays are not recorded. */
export const untrackedUsersAnswer = z.array(z.string());
export const setUntrackedUsersBody = z.object({
  userId: z.string().trim().min(1, 'userId is required').max(64, 'userId is too long'),
});

/** SPEC.md §3 Media stream. */
export const sessionMediaStream = z.object({
  Type: z.string().optional(),
  Codec: z.string().optional(),
  Height: z.number().optional(),
  Width: z.number().optional(),
  BitRate: z.number().optional(),
  Channels: z.number().optional(),
  Language: z.string().optional(),
  DisplayTitle: z.string().optional(),
  RealFrameRate: z.number().optional(),
  VideoRange: z.string().optional(),
  AspectRatio: z.string().optional(),
  Index: z.number().optional(),
});

/** SPEC.md §3 Session, as the `sessions` socket event carries it (only sessions with a now-playing item). */
export const liveSession = z.object({
  Id: z.string(),
  UserId: z.string().optional(),
  UserName: z.string().optional(),
  UserPrimaryImageTag: z.string().optional(),
  Client: z.string().optional(),
  DeviceName: z.string().optional(),
  ApplicationVersion: z.string().optional(),
  RemoteEndPoint: z.string().optional(),
  ServerId: z.string(),
  PlayState: z.object({
    PositionTicks: z.number().optional(),
    IsPaused: z.boolean(),
    AudioStreamIndex: z.number().optional(),
    SubtitleStreamIndex: z.number().optional(),
    PlayMethod: z.enum(['DirectPlay', 'DirectStream', 'Transcode']),
  }),
  TranscodingInfo: z
    .object({
      Container: z.string().optional(),
      IsVideoDirect: z.boolean().optional(),
      IsAudioDirect: z.boolean().optional(),
      VideoCodec: z.string().optional(),
      AudioCodec: z.string().optional(),
      AudioChannels: z.number().optional(),
      Height: z.number().optional(),
      Width: z.number().optional(),
      Bitrate: z.number().optional(),
      AudioBitrate: z.number().optional(),
      TranscodeReasons: z.array(z.string()).optional(),
    })
    .optional(),
  NowPlayingItem: z.object({
    Id: z.string(),
    SeriesId: z.string().optional(),
    SeriesName: z.string().optional(),
    Name: z.string().optional(),
    Type: z.string().optional(),
    Container: z.string().optional(),
    RunTimeTicks: z.number().optional(),
    Bitrate: z.number().optional(),
    MediaStreams: z.array(sessionMediaStream),
    Artists: z.array(z.string()).optional(),
    ParentIndexNumber: z.number().optional(),
    IndexNumber: z.number().optional(),
    CurrentProgram: z.unknown().optional(),
  }),
});
export type LiveSession = z.infer<typeof liveSession>;
export const liveSessionsEvent = z.array(liveSession);
