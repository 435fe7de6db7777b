/**
 * The one place that works out a play's stream facts: what the file is (Source) and what the client receives
 * (Stream), from the server's stream list and its transcoding info. The activity monitor records them with each
 * play; history rows imported without them get them computed from their stream list when they are read. The
 * dashboard only displays them.
 */
export interface StreamInput {
  Type?: string | undefined;
  Codec?: string | undefined;
  Width?: number | undefined;
  Height?: number | undefined;
  BitRate?: number | undefined;
  Channels?: number | undefined;
  Language?: string | undefined;
  RealFrameRate?: number | undefined;
  VideoRange?: string | undefined;
  AspectRatio?: string | undefined;
  Index?: number | undefined;
}

export interface TranscodingInput {
  Bitrate?: number | undefined;
  Container?: string | undefined;
  VideoCodec?: string | undefined;
  AudioCodec?: string | undefined;
  IsVideoDirect?: boolean | undefined;
  IsAudioDirect?: boolean | undefined;
  Width?: number | undefined;
  Height?: number | undefined;
  Framerate?: number | undefined;
  AudioChannels?: number | undefined;
  TranscodeReasons?: string[] | undefined;
}

export interface StreamFacts {
  Source: Record<string, unknown>;
  Stream: Record<string, unknown>;
}

/** Sum of the video and audio streams' bitrates (the source's bitrate), undefined when none says. */
export function sumBitrates(streams: ReadonlyArray<{ BitRate?: number | undefined; Type?: string | undefined }>): number | undefined {
  let total = 0;
  for (const s of streams) if ((s.Type === 'Video' || s.Type === 'Audio') && s.BitRate) total += s.BitRate;
  return total > 0 ? total : undefined;
}

/**
 * Source and Stream of a play. `audioStreamIndex` picks the audio track being played (the first one when
 * absent); without transcoding the client receives the source as it is.
 */
export function streamFacts(input: {
  streams: readonly StreamInput[];
  container?: string | null | undefined;
  transcoding?: TranscodingInput | null | undefined;
  audioStreamIndex?: number | null | undefined;
}): StreamFacts {
  const { streams, transcoding } = input;
  const video = streams.find((s) => s.Type === 'Video');
  const audio = streams.find((s) => s.Type === 'Audio' && s.Index === input.audioStreamIndex) ?? streams.find((s) => s.Type === 'Audio');
  const source = compact({
    Bitrate: sumBitrates(streams),
    Container: input.container ?? undefined,
    VideoCodec: video?.Codec,
    Width: video?.Width,
    Height: video?.Height,
    FrameRate: video?.RealFrameRate,
    VideoRange: video?.VideoRange,
    AspectRatio: video?.AspectRatio,
    AudioCodec: audio?.Codec,
    AudioChannels: audio?.Channels,
    AudioLanguage: audio?.Language,
  });
  if (!transcoding) return { Source: source, Stream: source };
  const stream = compact({
    Bitrate: transcoding.Bitrate,
    Container: transcoding.Container,
    VideoCodec: transcoding.IsVideoDirect ? video?.Codec : transcoding.VideoCodec,
    Width: transcoding.Width ?? video?.Width,
    Height: transcoding.Height ?? video?.Height,
    FrameRate: transcoding.Framerate ?? video?.RealFrameRate,
    VideoRange: video?.VideoRange,
    AspectRatio: video?.AspectRatio,
    AudioCodec: transcoding.IsAudioDirect ? audio?.Codec : transcoding.AudioCodec,
    AudioChannels: transcoding.AudioChannels ?? audio?.Channels,
    AudioLanguage: audio?.Language,
    TranscodeReasons: transcoding.TranscodeReasons,
  });
  return { Source: source, Stream: stream };
}

function compact(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}
