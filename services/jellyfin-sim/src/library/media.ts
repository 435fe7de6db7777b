/** Realistic media sources: a table of common encodes, and expansion into MediaStream-shaped records. */
import type { AudioProfile, MediaInfo, SubtitleTrack, VideoProfile } from './types.js';
import type { Rng } from '../rng.js';
import { LANGS } from './words.js';

const BT2020 = { colorTransfer: 'smpte2084', colorPrimaries: 'bt2020', colorSpace: 'bt2020nc' } as const;

export const VIDEO_PROFILES: Record<string, VideoProfile> = {
  h264_1080: {
    codec: 'h264',
    codecTag: 'avc1',
    profile: 'High',
    level: 41,
    width: 1920,
    height: 1080,
    bitDepth: 8,
    pixelFormat: 'yuv420p',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 23.976025,
  },
  h264_720: {
    codec: 'h264',
    profile: 'High',
    level: 40,
    width: 1280,
    height: 720,
    bitDepth: 8,
    pixelFormat: 'yuv420p',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 23.976025,
  },
  h264_480i: {
    codec: 'h264',
    profile: 'Main',
    level: 30,
    width: 720,
    height: 480,
    bitDepth: 8,
    pixelFormat: 'yuv420p',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 29.97003,
    interlaced: true,
  },
  h264_hi10p: {
    codec: 'h264',
    codecTag: 'avc1',
    profile: 'High 10',
    level: 51,
    width: 1920,
    height: 1080,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 23.976025,
  },
  hevc_1080: {
    codec: 'hevc',
    profile: 'Main 10',
    level: 120,
    width: 1920,
    height: 1080,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 23.976025,
  },
  hevc_2160_hdr10: {
    codec: 'hevc',
    profile: 'Main 10',
    level: 153,
    width: 3840,
    height: 2160,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'HDR',
    rangeType: 'HDR10',
    fps: 23.976025,
    ...BT2020,
  },
  hevc_2160_hdr10plus: {
    codec: 'hevc',
    profile: 'Main 10',
    level: 153,
    width: 3840,
    height: 2160,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'HDR',
    rangeType: 'HDR10Plus',
    fps: 23.976025,
    hdr10Plus: true,
    ...BT2020,
  },
  hevc_2160_dovi81: {
    codec: 'hevc',
    codecTag: 'hev1',
    profile: 'Main 10',
    level: 153,
    width: 3840,
    height: 2160,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'HDR',
    rangeType: 'DOVIWithHDR10',
    doviProfile: 8,
    doviTitle: 'Dolby Vision Profile 8.1 (HDR10)',
    fps: 23.976025,
    ...BT2020,
  },
  hevc_2160_dovi5: {
    codec: 'hevc',
    codecTag: 'dvh1',
    profile: 'Main 10',
    level: 153,
    width: 3840,
    height: 2160,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'HDR',
    rangeType: 'DOVI',
    doviProfile: 5,
    doviTitle: 'Dolby Vision Profile 5',
    fps: 23.976025,
    colorTransfer: 'smpte2084',
    colorPrimaries: 'bt2020',
    colorSpace: 'bt2020nc',
  },
  hevc_2160_dovi7: {
    codec: 'hevc',
    profile: 'Main 10',
    level: 153,
    width: 3840,
    height: 2160,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'HDR',
    rangeType: 'DOVIWithEL',
    doviProfile: 7,
    doviTitle: 'Dolby Vision Profile 7.6 (HDR10)',
    fps: 23.976025,
    ...BT2020,
  },
  hevc_1080_hlg: {
    codec: 'hevc',
    profile: 'Main 10',
    level: 123,
    width: 1920,
    height: 1080,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'HDR',
    rangeType: 'HLG',
    fps: 50,
    colorTransfer: 'arib-std-b67',
    colorPrimaries: 'bt2020',
    colorSpace: 'bt2020nc',
  },
  av1_1080: {
    codec: 'av1',
    profile: 'Main',
    level: 8,
    width: 1920,
    height: 1080,
    bitDepth: 10,
    pixelFormat: 'yuv420p10le',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 23.976025,
  },
  mpeg4_480: {
    codec: 'mpeg4',
    profile: 'Advanced Simple Profile',
    level: 5,
    width: 640,
    height: 352,
    bitDepth: 8,
    pixelFormat: 'yuv420p',
    range: 'SDR',
    rangeType: 'SDR',
    fps: 23.976025,
  },
};

export const AUDIO_PROFILES: Record<string, AudioProfile> = {
  aac_stereo: { codec: 'aac', profile: 'LC', channels: 2, layout: 'stereo', bitrate: 192000, sampleRate: 48000 },
  ac3_51: { codec: 'ac3', channels: 6, layout: '5.1', bitrate: 640000, sampleRate: 48000 },
  eac3_51: { codec: 'eac3', channels: 6, layout: '5.1', bitrate: 768000, sampleRate: 48000 },
  eac3_atmos: {
    codec: 'eac3',
    codecTag: 'ec-3',
    profile: 'Dolby Digital Plus + Dolby Atmos',
    channels: 6,
    layout: '5.1',
    bitrate: 768000,
    sampleRate: 48000,
    spatial: 'DolbyAtmos',
  },
  truehd_atmos: {
    codec: 'truehd',
    profile: 'Dolby TrueHD + Dolby Atmos',
    channels: 8,
    layout: '7.1',
    bitrate: 4500000,
    sampleRate: 48000,
    bitDepth: 24,
    spatial: 'DolbyAtmos',
  },
  dts_51: { codec: 'dts', profile: 'DTS', channels: 6, layout: '5.1', bitrate: 1509000, sampleRate: 48000 },
  dtshd_ma: { codec: 'dts', profile: 'DTS-HD MA', channels: 8, layout: '7.1', bitrate: 3500000, sampleRate: 48000, bitDepth: 24 },
  dtsx: { codec: 'dts', profile: 'DTS:X', channels: 8, layout: '7.1', bitrate: 4000000, sampleRate: 48000, bitDepth: 24, spatial: 'DTSX' },
  opus_stereo: { codec: 'opus', channels: 2, layout: 'stereo', bitrate: 128000, sampleRate: 48000 },
  flac: { codec: 'flac', channels: 2, layout: 'stereo', bitrate: 950000, sampleRate: 44100, bitDepth: 16 },
  flac_hires: { codec: 'flac', channels: 2, layout: 'stereo', bitrate: 2900000, sampleRate: 96000, bitDepth: 24 },
  mp3: { codec: 'mp3', channels: 2, layout: 'stereo', bitrate: 320000, sampleRate: 44100 },
  alac: { codec: 'alac', channels: 2, layout: 'stereo', bitrate: 1000000, sampleRate: 44100, bitDepth: 16 },
  aac_music: { codec: 'aac', profile: 'LC', channels: 2, layout: 'stereo', bitrate: 256000, sampleRate: 44100 },
};

const MOVIE_ENCODES: [string, string, string, number][] = [
  // video profile, main audio, container, weight
  ['h264_1080', 'ac3_51', 'mkv', 30],
  ['h264_1080', 'aac_stereo', 'mp4', 12],
  ['h264_720', 'aac_stereo', 'mp4', 6],
  ['h264_480i', 'ac3_51', 'mkv', 1],
  ['mpeg4_480', 'mp3', 'avi', 1],
  ['h264_hi10p', 'aac_stereo', 'mp4', 2],
  ['hevc_1080', 'eac3_51', 'mkv', 10],
  ['hevc_2160_hdr10', 'truehd_atmos', 'mkv', 10],
  ['hevc_2160_hdr10', 'dtshd_ma', 'mkv', 5],
  ['hevc_2160_hdr10plus', 'eac3_atmos', 'mkv', 3],
  ['hevc_2160_dovi81', 'eac3_atmos', 'mkv', 6],
  ['hevc_2160_dovi5', 'eac3_atmos', 'mp4', 2],
  ['hevc_2160_dovi7', 'truehd_atmos', 'mkv', 2],
  ['av1_1080', 'opus_stereo', 'mkv', 3],
  ['hevc_2160_hdr10', 'dtsx', 'mkv', 1],
];

const EPISODE_ENCODES: [string, string, string, number][] = [
  ['h264_1080', 'eac3_51', 'mkv', 40],
  ['h264_720', 'aac_stereo', 'mkv', 20],
  ['hevc_1080', 'aac_stereo', 'mkv', 15],
  ['hevc_2160_hdr10', 'eac3_atmos', 'mkv', 4],
  ['hevc_2160_dovi81', 'eac3_atmos', 'mkv', 2],
  ['hevc_1080_hlg', 'aac_stereo', 'mkv', 1],
  ['av1_1080', 'opus_stereo', 'mkv', 3],
  ['h264_480i', 'ac3_51', 'mkv', 1],
];

const TRACK_ENCODES: [string, string, number][] = [
  ['flac', 'flac', 40],
  ['mp3', 'mp3', 30],
  ['m4a', 'aac_music', 15],
  ['flac', 'flac_hires', 8],
  ['m4a', 'alac', 5],
  ['ogg', 'opus_stereo', 2],
];

const SUB_CODECS = ['subrip', 'ass', 'PGSSUB', 'subrip', 'subrip'];

function subtitles(rng: Rng, count: number, container: string): SubtitleTrack[] {
  const out: SubtitleTrack[] = [];
  for (let i = 0; i < count; i++) {
    const external = rng.chance(0.2);
    out.push({
      codec: container === 'mp4' && !external ? 'mov_text' : rng.pick(SUB_CODECS),
      language: i === 0 ? 'eng' : rng.pick(LANGS),
      forced: i > 0 && rng.chance(0.1),
      hearingImpaired: rng.chance(0.08),
      external,
    });
  }
  return out;
}

export function videoMedia(rng: Rng, kind: 'movie' | 'episode', runTimeTicks: number): MediaInfo {
  const encodes = kind === 'movie' ? MOVIE_ENCODES : EPISODE_ENCODES;
  const [vp, ap, container] = rng.weighted(encodes.map((e) => [e, e[3]] as const));
  const video = VIDEO_PROFILES[vp] as VideoProfile;
  const mainAudio = AUDIO_PROFILES[ap] as AudioProfile;
  const originalLang = rng.chance(0.75) ? 'eng' : rng.pick(LANGS);
  const audio: MediaInfo['audio'] = [{ profile: mainAudio, language: originalLang }];
  if (rng.chance(0.35)) audio.push({ profile: AUDIO_PROFILES.ac3_51 as AudioProfile, language: rng.pick(LANGS) });
  if (kind === 'movie' && rng.chance(0.1))
    audio.push({ profile: AUDIO_PROFILES.aac_stereo as AudioProfile, language: 'eng', title: 'Commentary' });
  const subs = subtitles(
    rng,
    rng.weighted([
      [0, 3],
      [1, 4],
      [2, 3],
      [4, 2],
      [8, 1],
    ] as const),
    container,
  );
  const videoBitrate =
    video.height >= 2160
      ? rng.int(14_000_000, 60_000_000)
      : video.height >= 1080
        ? rng.int(3_000_000, 12_000_000)
        : rng.int(900_000, 3_000_000);
  const bitrate = videoBitrate + audio.reduce((s, a) => s + a.profile.bitrate, 0);
  const seconds = runTimeTicks / 10_000_000;
  return { container, video, audio, subtitles: subs, bitrate, size: Math.round((bitrate / 8) * seconds) };
}

export function audioMedia(rng: Rng, runTimeTicks: number): MediaInfo {
  const [container, ap] = rng.weighted(TRACK_ENCODES.map((e) => [e, e[2]] as const));
  const profile = AUDIO_PROFILES[ap] as AudioProfile;
  const seconds = runTimeTicks / 10_000_000;
  return {
    container,
    audio: [{ profile, language: 'und' }],
    subtitles: [],
    bitrate: profile.bitrate,
    size: Math.round((profile.bitrate / 8) * seconds),
  };
}

const LANG_NAMES: Record<string, string> = {
  eng: 'English',
  fre: 'French',
  ger: 'German',
  spa: 'Spanish',
  ita: 'Italian',
  jpn: 'Japanese',
  kor: 'Korean',
  por: 'Portuguese',
  dut: 'Dutch',
  swe: 'Swedish',
  und: 'Undetermined',
};

function codecLabel(codec: string, profile?: string): string {
  if (profile && /Atmos|DTS/.test(profile)) return profile;
  const m: Record<string, string> = {
    h264: 'H264',
    hevc: 'HEVC',
    av1: 'AV1',
    mpeg4: 'MPEG4',
    aac: 'AAC',
    ac3: 'Dolby Digital',
    eac3: 'Dolby Digital Plus',
    truehd: 'TrueHD',
    dts: 'DTS',
    flac: 'FLAC',
    mp3: 'MP3',
    opus: 'Opus',
    alac: 'ALAC',
  };
  return m[codec] ?? codec.toUpperCase();
}

function resolutionLabel(v: VideoProfile): string {
  if (v.width >= 3800) return '4K';
  if (v.width >= 1900) return '1080p';
  if (v.width >= 1260) return '720p';
  return `${v.height}${v.interlaced ? 'i' : 'p'}`;
}

export type StreamFlavor = 'jellyfin' | 'emby';

/** Expands a MediaInfo into MediaStream-shaped objects (PascalCase, wire-ready). */
export function mediaStreams(media: MediaInfo, path: string, flavor: StreamFlavor): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let index = 0;
  const jf = flavor === 'jellyfin';
  if (media.video) {
    const v = media.video;
    const rangeLabel = v.doviTitle
      ? ` ${v.doviTitle.replace(/^Dolby Vision/, 'Dolby Vision')}`
      : v.range === 'HDR'
        ? ` ${v.rangeType === 'HDR10Plus' ? 'HDR10+' : v.rangeType}`
        : '';
    const s: Record<string, unknown> = {
      Codec: v.codec,
      CodecTag: v.codecTag,
      Language: 'und',
      ColorSpace: v.colorSpace,
      ColorTransfer: v.colorTransfer,
      ColorPrimaries: v.colorPrimaries,
      TimeBase: '1/1000',
      DisplayTitle: `${resolutionLabel(v)} ${codecLabel(v.codec)}${rangeLabel}`,
      IsInterlaced: v.interlaced ?? false,
      IsAVC: v.codec === 'h264',
      BitRate: media.bitrate - media.audio.reduce((s2, a) => s2 + a.profile.bitrate, 0),
      BitDepth: v.bitDepth,
      RefFrames: 1,
      IsDefault: true,
      IsForced: false,
      Height: v.height,
      Width: v.width,
      AverageFrameRate: v.fps,
      RealFrameRate: v.fps,
      Profile: v.profile,
      Type: 'Video',
      AspectRatio: '16:9',
      Index: index++,
      IsExternal: false,
      IsTextSubtitleStream: false,
      SupportsExternalStream: false,
      PixelFormat: v.pixelFormat,
      Level: v.level,
      IsAnamorphic: false,
    };
    if (jf) {
      Object.assign(s, {
        VideoRange: v.range,
        VideoRangeType: v.rangeType,
        VideoDoViTitle: v.doviTitle,
        AudioSpatialFormat: 'None',
        IsHearingImpaired: false,
        ReferenceFrameRate: v.fps,
        Hdr10PlusPresentFlag: v.hdr10Plus ? true : undefined,
      });
      if (v.doviProfile !== undefined) {
        Object.assign(s, {
          DvVersionMajor: 1,
          DvVersionMinor: 0,
          DvProfile: v.doviProfile,
          DvLevel: 6,
          RpuPresentFlag: 1,
          ElPresentFlag: v.doviProfile === 7 ? 1 : 0,
          BlPresentFlag: 1,
          DvBlSignalCompatibilityId: v.doviProfile === 5 ? 0 : 1,
        });
      }
    } else {
      const ext =
        v.doviProfile !== undefined
          ? 'DolbyVision'
          : v.rangeType === 'HDR10'
            ? 'Hdr10'
            : v.rangeType === 'HDR10Plus'
              ? 'Hdr10Plus'
              : v.rangeType === 'HLG'
                ? 'HyperLogGamma'
                : 'None';
      Object.assign(s, {
        VideoRange: v.range,
        ExtendedVideoType: ext,
        ExtendedVideoSubType:
          v.doviProfile === 8 ? 'DoviProfile81' : v.doviProfile === 5 ? 'DoviProfile50' : v.doviProfile === 7 ? 'DoviProfile76' : 'None',
      });
    }
    out.push(s);
  }
  media.audio.forEach((a, i) => {
    const p = a.profile;
    const lang = LANG_NAMES[a.language] ?? a.language;
    const s: Record<string, unknown> = {
      Codec: p.codec,
      CodecTag: p.codecTag,
      Language: a.language,
      TimeBase: `1/${p.sampleRate}`,
      Title: a.title,
      DisplayTitle: `${a.language === 'und' ? '' : `${lang} - `}${codecLabel(p.codec, p.profile)} - ${p.layout}${i === 0 ? ' - Default' : ''}`,
      IsInterlaced: false,
      ChannelLayout: p.layout,
      BitRate: p.bitrate,
      BitDepth: p.bitDepth,
      Channels: p.channels,
      SampleRate: p.sampleRate,
      IsDefault: i === 0,
      IsForced: false,
      Profile: p.profile,
      Type: 'Audio',
      Index: index++,
      IsExternal: false,
      IsTextSubtitleStream: false,
      SupportsExternalStream: false,
      Level: 0,
    };
    if (jf)
      Object.assign(s, {
        VideoRange: 'Unknown',
        VideoRangeType: 'Unknown',
        AudioSpatialFormat: p.spatial ?? 'None',
        IsHearingImpaired: false,
        IsAVC: false,
        LocalizedDefault: 'Default',
        LocalizedExternal: 'External',
      });
    out.push(s);
  });
  for (const sub of media.subtitles) {
    const text = sub.codec !== 'PGSSUB';
    const lang = LANG_NAMES[sub.language] ?? sub.language;
    const s: Record<string, unknown> = {
      Codec: sub.codec,
      Language: sub.language,
      DisplayTitle: `${lang}${sub.forced ? ' - Forced' : ''}${sub.hearingImpaired ? ' - SDH' : ''} - ${sub.codec.toUpperCase()}${sub.external ? ' - External' : ''}`,
      IsInterlaced: false,
      IsDefault: false,
      IsForced: sub.forced,
      Type: 'Subtitle',
      Index: index++,
      IsExternal: sub.external,
      IsTextSubtitleStream: text,
      SupportsExternalStream: text,
      Path: sub.external ? path.replace(/\.[^.]+$/, `.${sub.language}.srt`) : undefined,
      Level: 0,
    };
    if (jf)
      Object.assign(s, {
        VideoRange: 'Unknown',
        VideoRangeType: 'Unknown',
        AudioSpatialFormat: 'None',
        IsHearingImpaired: sub.hearingImpaired,
        LocalizedForced: 'Forced',
        LocalizedExternal: 'External',
      });
    out.push(s);
  }
  return out;
}
