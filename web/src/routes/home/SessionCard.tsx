import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MediaStream, Session } from '../../api/types';
import { DeviceIcon } from '../../components/DeviceIcon';
import { Avatar } from '../../components/media';
import { formatBitrate, formatTicks, formatTime, resolutionLabel } from '../../lib/format';
import { isPublicIp, playbackEta, progressPercent, sessionTitle } from '../../lib/sessions';
import { STORAGE, usePreference } from '../../store/preferences';
import { GeolocationModal } from './GeolocationModal';
import { EndSessionDialog } from './EndSessionDialog';

function streamAt(streams: MediaStream[] | null | undefined, type: string, index?: number | null): MediaStream | undefined {
  const list = streams ?? [];
  if (index !== undefined && index !== null && index >= 0) return list.find((s) => s.Index === index && s.Type === type);
  return list.find((s) => s.Type === type);
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex min-w-0 gap-2">
      <dt className="w-28 shrink-0 text-gray-400">{label}</dt>
      <dd className="min-w-0 truncate">{value}</dd>
    </div>
  );
}

/** One now-playing card (SPEC.md §2 Sessions). `detail` adds the JSON toggle, play method, codecs and a user link. */
export function SessionCard({
  session,
  detail = false,
  geolocationEnabled,
  now = Date.now(),
  serverName,
  forViewer = false,
}: {
  session: Session;
  detail?: boolean;
  geolocationEnabled: boolean;
  now?: number;
  /** The media server playing it, shown once several are linked. */
  serverName?: string | undefined;
  /** A viewer's own session: no item link (viewers have no item pages) and no "end session". */
  forViewer?: boolean;
}) {
  const { t } = useTranslation();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [geoIp, setGeoIp] = useState<string | null>(null);
  const [showJson, setShowJson] = useState(false);
  const [ending, setEnding] = useState(false);
  const item = session.NowPlayingItem!;
  const play = session.PlayState ?? {};
  const transcode = play.PlayMethod === 'Transcode' ? session.TranscodingInfo : null;
  const video = streamAt(item.MediaStreams, 'Video');
  const audio = streamAt(item.MediaStreams, 'Audio', play.AudioStreamIndex);
  const subtitle =
    play.SubtitleStreamIndex !== undefined && play.SubtitleStreamIndex !== null && play.SubtitleStreamIndex >= 0
      ? streamAt(item.MediaStreams, 'Subtitle', play.SubtitleStreamIndex)
      : undefined;
  const { title, subtitle: subtitleLine } = sessionTitle(item);
  const position = play.PositionTicks ?? 0;
  const runtime = item.RunTimeTicks ?? 0;
  const eta = playbackEta(now, position, runtime);
  const percent = progressPercent(position, runtime);
  const ip = session.RemoteEndPoint ?? '';
  const ipClickable = geolocationEnabled && isPublicIp(ip);
  const videoText = video
    ? `${resolutionLabel(transcode?.Height ?? video.Height)} ${(transcode?.VideoCodec ?? video.Codec ?? '').toUpperCase()}${transcode && !transcode.IsVideoDirect ? ` (${t('home.session.transcode')})` : ''}`
    : '-';
  const audioText = audio
    ? `${audio.DisplayTitle ?? audio.Codec ?? ''}${transcode && !transcode.IsAudioDirect ? ` → ${(transcode.AudioCodec ?? '').toUpperCase()}` : ''}`
    : '-';
  return (
    <article className="card flex flex-col gap-3" data-testid="session-card" data-session-id={session.Id} aria-label={title}>
      <div className="flex items-start gap-3">
        <DeviceIcon client={session.Client} deviceName={session.DeviceName} />
        <div className="min-w-0 flex-1 text-sm">
          <div className="truncate font-medium text-white">{session.DeviceName}</div>
          <div className="truncate text-gray-400">
            {session.Client} {session.ApplicationVersion}
          </div>
          {serverName && (
            <div className="truncate text-xs text-blue-300" data-testid="session-server">
              {serverName}
            </div>
          )}
        </div>
        <span
          aria-label={play.IsPaused ? t('home.session.paused') : t('home.session.playing')}
          title={play.IsPaused ? t('home.session.paused') : t('home.session.playing')}
          className="text-xl text-gray-200"
          data-testid="play-state"
        >
          {play.IsPaused ? '❚❚' : '▶'}
        </span>
      </div>
      <dl className="grid grid-cols-1 gap-1 text-xs sm:text-sm">
        <Row label={t('home.session.container')} value={(transcode?.Container ?? item.Container ?? '-').toUpperCase()} />
        <Row label={t('home.session.video')} value={videoText} />
        <Row label={t('home.session.videoBitrate')} value={formatBitrate(transcode?.Bitrate ?? video?.BitRate ?? item.Bitrate)} />
        <Row label={t('home.session.audio')} value={audioText} />
        <Row label={t('home.session.audioBitrate')} value={formatBitrate(transcode?.AudioBitrate ?? audio?.BitRate)} />
        <Row label={t('home.session.subtitles')} value={subtitle?.DisplayTitle ?? t('common.none')} />
        {detail && <Row label={t('home.session.playMethod')} value={play.PlayMethod ?? '-'} />}
        {detail && <Row label={t('home.session.codecs')} value={[video?.Codec, audio?.Codec].filter(Boolean).join(' / ') || '-'} />}
        <Row
          label={t('home.session.ip')}
          value={
            ipClickable ? (
              <button type="button" className="link" onClick={() => setGeoIp(ip)}>
                {ip}
              </button>
            ) : (
              <span data-testid="session-ip">{ip || '-'}</span>
            )
          }
        />
        <Row
          label={t('home.session.eta')}
          value={eta ? <span title={detail ? eta.toLocaleString() : undefined}>{formatTime(eta, hour12)}</span> : '-'}
        />
      </dl>
      <div>
        <div className="mb-1 truncate text-sm font-semibold text-white" data-testid="session-title">
          {!forViewer && (item.Type === 'Episode' || item.Type === 'Movie' || item.Type === 'Series') ? (
            <Link className="hover:underline" to={`/libraries/item/${item.Type === 'Episode' ? (item.SeriesId ?? item.Id) : item.Id}`}>
              {title}
            </Link>
          ) : (
            title
          )}
        </div>
        {subtitleLine && <div className="truncate text-xs text-gray-400">{subtitleLine}</div>}
        <div className="mt-2 flex items-center justify-between text-xs text-gray-400">
          <span>
            {formatTicks(position)} / {formatTicks(runtime)}
          </span>
          <span className="flex min-w-0 items-center gap-2">
            <Avatar userId={session.UserId} hasImage={Boolean(session.UserPrimaryImageTag)} name={session.UserName ?? ''} size="h-5 w-5" />
            {detail && session.UserId ? (
              <Link to={`/users/${session.UserId}`} className="link truncate">
                {session.UserName}
              </Link>
            ) : (
              <span className="truncate">{session.UserName}</span>
            )}
          </span>
        </div>
        <div
          className="mt-1 h-1.5 w-full overflow-hidden rounded bg-gray-800"
          role="progressbar"
          aria-valuenow={Math.round(percent)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-label={t('home.session.progress')}
        >
          <div className="h-full bg-blue-500" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <div>
        <div className="flex flex-wrap gap-2">
          {detail && (
            <button
              type="button"
              className="btn-secondary px-2 py-1 text-xs"
              aria-expanded={showJson}
              onClick={() => setShowJson(!showJson)}
            >
              {t('home.session.json')}
            </button>
          )}
          {/* Administrators only: the API refuses a viewer's call anyway. */}
          {!forViewer && (
            <button type="button" className="btn-danger ml-auto px-2 py-1 text-xs" onClick={() => setEnding(true)}>
              {t('endSession.button')}
            </button>
          )}
        </div>
        {detail && showJson && (
          <pre className="mt-2 max-h-64 overflow-auto rounded bg-black/60 p-2 text-xs">{JSON.stringify(session, null, 2)}</pre>
        )}
      </div>
      {ending && <EndSessionDialog session={session} title={title} onClose={() => setEnding(false)} />}
      {geoIp && <GeolocationModal ip={geoIp} onClose={() => setGeoIp(null)} />}
    </article>
  );
}
