import { useTranslation } from 'react-i18next';
import type { MediaStream, PlaybackActivity } from '../../api/types';
import { Modal } from '../Modal';
import { formatBitrate } from '../../lib/format';

/** Stream (what was sent) versus source (the file), side by side. */
export function StreamDetailsModal({ row, onClose }: { row: PlaybackActivity; onClose: () => void }) {
  const { t } = useTranslation();
  const info = row.TranscodingInfo ?? {};
  const streams: MediaStream[] = row.MediaStreams ?? [];
  const video = streams.find((s) => s.Type === 'Video');
  const audio = streams.find((s) => s.Type === 'Audio');
  const transcoding = row.PlayMethod === 'Transcode';
  const videoDirect = !transcoding || info.IsVideoDirect;
  const audioDirect = !transcoding || info.IsAudioDirect;
  const rows: Array<[string, React.ReactNode, React.ReactNode]> = [
    ['bitrate', formatBitrate(transcoding ? info.Bitrate : video?.BitRate), formatBitrate(video?.BitRate)],
    ['container', info.Container ?? '-', info.Container ?? '-'],
    ['codec', (videoDirect ? video?.Codec : info.VideoCodec) ?? '-', video?.Codec ?? '-'],
    ['width', (videoDirect ? video?.Width : info.Width) ?? '-', video?.Width ?? '-'],
    ['height', (videoDirect ? video?.Height : info.Height) ?? '-', video?.Height ?? '-'],
    ['frameRate', video?.RealFrameRate ?? '-', video?.RealFrameRate ?? '-'],
    ['dynamicRange', video?.VideoRange ?? '-', video?.VideoRange ?? '-'],
    ['aspectRatio', video?.AspectRatio ?? '-', video?.AspectRatio ?? '-'],
    ['audioCodec', (audioDirect ? audio?.Codec : info.AudioCodec) ?? '-', audio?.Codec ?? '-'],
    ['channels', (audioDirect ? audio?.Channels : info.AudioChannels) ?? '-', audio?.Channels ?? '-'],
    ['language', audio?.Language ?? '-', audio?.Language ?? '-'],
  ];
  return (
    <Modal title={t('activity.streamDetails')} onClose={onClose} wide>
      <p className="mb-3 text-sm text-gray-400">
        {row.Client} · {row.DeviceName} · {t(`activity.methods.${methodKey(row.PlayMethod)}`)}
      </p>
      <div className="overflow-x-auto">
        <table className="table" data-testid="stream-details">
          <thead>
            <tr>
              <th />
              <th>{t('activity.stream')}</th>
              <th>{t('activity.source')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([key, stream, source]) => (
              <tr key={key}>
                <th scope="row" className="text-gray-400">
                  {t(`activity.fields.${key}`)}
                </th>
                <td className={transcoding && String(stream) !== String(source) ? 'text-amber-300' : ''}>{stream}</td>
                <td>{source}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="text-gray-400">
                {t('activity.fields.transcodeReasons')}
              </th>
              <td colSpan={2}>{(info.TranscodeReasons ?? []).join(', ') || '-'}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </Modal>
  );
}

export type MethodKey = 'transcode' | 'directPlay' | 'directStream';

/** On servers that are not IS_JELLYFIN, DirectPlay is shown as DirectStream (SPEC.md §3). */
export function methodKey(method: string | null | undefined, isJellyfin = true): MethodKey {
  if (method === 'Transcode') return 'transcode';
  if (method === 'DirectPlay') return isJellyfin ? 'directPlay' : 'directStream';
  return 'directStream';
}
