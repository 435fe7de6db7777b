/**
 * Stream details and transcode info for the seeded history, in the shape the activity monitor stores them
 * (session-sample.ts: Source/Stream facts, the server's MediaStreams, OriginalContainer, ReportedPlayMethod;
 * the server's TranscodingInfo without empty fields). A real library has a few hundred distinct files'
 * shapes (codec × resolution × audio layout × languages), popular ones much more often: so does the seed.
 */
type Random = () => number;

const VIDEO = [
  { codec: 'h264', width: 1920, height: 1080, bitrate: 8_000_000 },
  { codec: 'hevc', width: 3840, height: 2160, bitrate: 25_000_000 },
  { codec: 'h264', width: 1280, height: 720, bitrate: 4_000_000 },
  { codec: 'hevc', width: 1920, height: 1080, bitrate: 6_000_000 },
  { codec: 'av1', width: 1920, height: 1080, bitrate: 3_500_000 },
  { codec: 'mpeg4', width: 720, height: 480, bitrate: 1_500_000 },
];
const AUDIO = [
  { codec: 'aac', channels: 2, bitrate: 192_000, title: 'AAC - Stereo' },
  { codec: 'ac3', channels: 6, bitrate: 640_000, title: 'Dolby Digital - 5.1' },
  { codec: 'eac3', channels: 6, bitrate: 768_000, title: 'Dolby Digital+ - 5.1' },
  { codec: 'truehd', channels: 8, bitrate: 3_500_000, title: 'TrueHD - 7.1' },
  { codec: 'dts', channels: 6, bitrate: 1_536_000, title: 'DTS - 5.1' },
];
const LANGUAGES = ['eng', 'fre', 'ger', 'spa', 'jpn', 'ita'];
const CONTAINERS = ['mkv', 'mp4', 'avi'];
const REASONS = [
  ['ContainerNotSupported'],
  ['VideoCodecNotSupported'],
  ['AudioCodecNotSupported'],
  ['ContainerBitrateExceedsLimit'],
  ['VideoCodecNotSupported', 'AudioCodecNotSupported'],
  ['SubtitleCodecNotSupported'],
];

/** One file's streams: video, one or two audio tracks, maybe subtitles; or a music track's single audio. */
function mediaStreams(n: number, audioOnly: boolean) {
  if (audioOnly) {
    const codec = ['flac', 'mp3', 'aac', 'opus'][n % 4]!;
    return [
      {
        Type: 'Audio',
        Codec: codec,
        BitRate: [900_000, 320_000, 256_000, 160_000][n % 4],
        Channels: 2,
        Index: 0,
        DisplayTitle: `${codec.toUpperCase()} - Stereo`,
      },
    ];
  }
  const video = VIDEO[n % VIDEO.length]!;
  const audio = AUDIO[Math.floor(n / VIDEO.length) % AUDIO.length]!;
  const language = LANGUAGES[Math.floor(n / 30) % LANGUAGES.length]!;
  const streams: Array<Record<string, unknown>> = [
    {
      Type: 'Video',
      Codec: video.codec,
      Height: video.height,
      Width: video.width,
      BitRate: video.bitrate,
      DisplayTitle: `${video.height >= 2160 ? '4K' : `${video.height}p`} ${video.codec.toUpperCase()}${video.height >= 2160 ? ' HDR' : ''}`,
      RealFrameRate: n % 3 === 0 ? 25 : 23.976,
      VideoRange: video.height >= 2160 ? 'HDR' : 'SDR',
      AspectRatio: '16:9',
      Index: 0,
    },
    {
      Type: 'Audio',
      Codec: audio.codec,
      BitRate: audio.bitrate,
      Channels: audio.channels,
      Language: language,
      DisplayTitle: `${language} - ${audio.title}`,
      Index: 1,
    },
  ];
  if (n % 2 === 0)
    streams.push({
      Type: 'Audio',
      Codec: 'aac',
      BitRate: 192_000,
      Channels: 2,
      Language: 'eng',
      DisplayTitle: 'eng - AAC - Stereo',
      Index: 2,
    });
  if (n % 5 < 3)
    streams.push({ Type: 'Subtitle', Codec: n % 2 ? 'subrip' : 'pgssub', Language: 'eng', DisplayTitle: 'English', Index: streams.length });
  return streams;
}

function facts(streams: Array<Record<string, unknown>>, container: string): Record<string, unknown> {
  const video = streams.find((s) => s.Type === 'Video');
  const audio = streams.find((s) => s.Type === 'Audio')!;
  const bitrate = streams.reduce((sum, s) => sum + ((s.BitRate as number | undefined) ?? 0), 0);
  const out: Record<string, unknown> = { Bitrate: bitrate, Container: container };
  if (video)
    Object.assign(out, {
      VideoCodec: video.Codec,
      Width: video.Width,
      Height: video.Height,
      FrameRate: video.RealFrameRate,
      VideoRange: video.VideoRange,
      AspectRatio: video.AspectRatio,
    });
  Object.assign(out, { AudioCodec: audio.Codec, AudioChannels: audio.Channels });
  if (audio.Language) out.AudioLanguage = audio.Language;
  return out;
}

export interface SeedStreams {
  /** JSON text of stream_details and transcoding_info (null: not a transcode). */
  streamDetails: string;
  transcodingInfo: string | null;
}

/** A picker of skewed stream shapes: about 180 files' shapes × method, transcodes with about 40 settings. */
export function seedStreamPicker(rand: Random): (method: string, audioOnly: boolean) => SeedStreams {
  const skewed = (count: number) => Math.floor(count * Math.pow(rand(), 2.2));
  return (method, audioOnly) => {
    const n = skewed(audioOnly ? 4 : 180);
    const streams = mediaStreams(n, audioOnly);
    const container = audioOnly ? (['flac', 'mp3', 'm4a', 'ogg'][n % 4] as string) : CONTAINERS[n % CONTAINERS.length]!;
    const source = facts(streams, container);
    if (method !== 'Transcode') {
      return {
        streamDetails: JSON.stringify({
          Source: source,
          Stream: source,
          MediaStreams: streams,
          OriginalContainer: container,
          ReportedPlayMethod: method,
        }),
        transcodingInfo: null,
      };
    }
    const t = skewed(40);
    const height = [1080, 720, 480, 2160][t % 4]!;
    const transcoding: Record<string, unknown> = {
      AudioCodec: t % 3 === 0 ? 'aac' : 'opus',
      VideoCodec: audioOnly ? undefined : t % 5 === 0 ? 'hevc' : 'h264',
      Container: audioOnly ? 'mp3' : 'ts',
      IsVideoDirect: !audioOnly && t % 7 === 0,
      IsAudioDirect: t % 4 === 1,
      Bitrate: [8_000_000, 4_000_000, 2_000_000, 20_000_000][t % 4],
      Width: audioOnly ? undefined : Math.round((height * 16) / 9),
      Height: audioOnly ? undefined : height,
      AudioChannels: 2,
      HardwareAccelerationType: ['none', 'vaapi', 'qsv', 'nvenc'][t % 4],
      TranscodeReasons: REASONS[t % REASONS.length],
    };
    for (const key of Object.keys(transcoding)) if (transcoding[key] === undefined) delete transcoding[key];
    const stream = {
      ...source,
      Bitrate: transcoding.Bitrate,
      Container: transcoding.Container,
      AudioCodec: transcoding.AudioCodec,
      TranscodeReasons: transcoding.TranscodeReasons,
    };
    if (!audioOnly) Object.assign(stream, { VideoCodec: transcoding.VideoCodec, Width: transcoding.Width, Height: transcoding.Height });
    return {
      streamDetails: JSON.stringify({
        Source: source,
        Stream: stream,
        MediaStreams: streams,
        OriginalContainer: container,
        ReportedPlayMethod: method,
      }),
      transcodingInfo: JSON.stringify(transcoding),
    };
  };
}
