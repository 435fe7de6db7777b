import { useTranslation } from 'react-i18next';
import type { PlaybackActivity, StreamDetails } from '../../api/types';
import { Modal } from '../Modal';
import { formatBitrate } from '../../lib/format';

/**
 * The facts of the file (source) and of what was sent (stream), as the server answers them (StreamDetails: the
 * recorded facts, or worked out on the server for imported rows). Empty when the row has no stream details.
 */
export function streamFacts(row: PlaybackActivity): StreamDetails {
  return row.StreamDetails?.Source ? row.StreamDetails : { Source: {}, Stream: {} };
}

/** Stream (what was sent) versus source (the file), side by side. */
export function StreamDetailsModal({ row, onClose }: { row: PlaybackActivity; onClose: () => void }) {
  const { t } = useTranslation();
  const { Source: source, Stream: stream } = streamFacts(row);
  const transcoding = row.PlayMethod === 'Transcode';
  const value = (v: string | number | undefined) => (v === undefined || v === null || v === '' ? '-' : v);
  const rows: Array<[string, React.ReactNode, React.ReactNode]> = [
    ['bitrate', formatBitrate(stream.Bitrate), formatBitrate(source.Bitrate)],
    ['container', value(stream.Container?.toUpperCase()), value(source.Container?.toUpperCase())],
    ['codec', value(stream.VideoCodec), value(source.VideoCodec)],
    ['width', value(stream.Width), value(source.Width)],
    ['height', value(stream.Height), value(source.Height)],
    ['frameRate', value(stream.FrameRate), value(source.FrameRate)],
    ['dynamicRange', value(stream.VideoRange), value(source.VideoRange)],
    ['aspectRatio', value(stream.AspectRatio), value(source.AspectRatio)],
    ['audioCodec', value(stream.AudioCodec), value(source.AudioCodec)],
    ['channels', value(stream.AudioChannels), value(source.AudioChannels)],
    ['language', value(stream.AudioLanguage), value(source.AudioLanguage)],
  ];
  const reasons = stream.TranscodeReasons ?? row.TranscodingInfo?.TranscodeReasons ?? [];
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
              <td colSpan={2}>{reasons.join(', ') || '-'}</td>
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
