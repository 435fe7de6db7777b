import { streamFacts, type StreamInput, type TranscodingInput } from '../activity/stream-facts.js';

/**
 * A history row's streams in two forms: `MediaStreams`, the media server's stream array (SPEC.md §3 Media stream)
 * with `OriginalContainer`, as the incumbent's clients read them; and `StreamDetails`, Reelstat's stream-versus-
 * source comparison for the stream-details modal. Rows come in three recorded shapes: the current one (both),
 * older Reelstat rows (only {Source, Stream}: the array is rebuilt from the source facts) and imported rows (the
 * server's array itself: their {Source, Stream} is worked out here, by stream-facts.ts, from the array and the
 * row's transcoding info, so the dashboard never derives it).
 */
export function historyStreams(
  recorded: unknown,
  play: { playMethod?: string | null; transcodingInfo?: unknown } = {},
): {
  MediaStreams: Array<Record<string, unknown>> | null;
  OriginalContainer: string | null;
  StreamDetails: Record<string, unknown> | null;
} {
  if (Array.isArray(recorded)) {
    const streams = recorded as Array<Record<string, unknown>>;
    const transcoding =
      play.playMethod === 'Transcode' && typeof play.transcodingInfo === 'object' && play.transcodingInfo !== null
        ? (play.transcodingInfo as TranscodingInput)
        : null;
    const details = streamFacts({ streams: streams as StreamInput[], transcoding });
    return { MediaStreams: streams, OriginalContainer: null, StreamDetails: { ...details } };
  }
  if (typeof recorded !== 'object' || recorded === null) return { MediaStreams: null, OriginalContainer: null, StreamDetails: null };
  const { MediaStreams, OriginalContainer, ...details } = recorded as Record<string, unknown>;
  const source = (details.Source ?? {}) as Record<string, unknown>;
  return {
    MediaStreams: Array.isArray(MediaStreams) ? (MediaStreams as Array<Record<string, unknown>>) : fromSourceFacts(source),
    OriginalContainer:
      typeof OriginalContainer === 'string' ? OriginalContainer : typeof source.Container === 'string' ? source.Container : null,
    StreamDetails: 'Source' in details ? details : null,
  };
}

/** Older rows kept only the source's facts: one video and one audio stream, with what is known of them. */
function fromSourceFacts(source: Record<string, unknown>): Array<Record<string, unknown>> {
  const streams: Array<Record<string, unknown>> = [];
  if (source.VideoCodec !== undefined)
    streams.push({
      Type: 'Video',
      Codec: source.VideoCodec,
      Width: source.Width,
      Height: source.Height,
      RealFrameRate: source.FrameRate,
      VideoRange: source.VideoRange,
      AspectRatio: source.AspectRatio,
    });
  if (source.AudioCodec !== undefined)
    streams.push({ Type: 'Audio', Codec: source.AudioCodec, Channels: source.AudioChannels, Language: source.AudioLanguage });
  return streams;
}
