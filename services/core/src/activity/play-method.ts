import type { PlayMethod } from '../history/record-plays.js';
import type { MediaServerKind } from '../media-servers/media-server-links.js';

/**
 * The play method Reelstat records and shows. Jellyfin's values are kept as reported. On servers that are not
 * Jellyfin (Emby), SPEC.md's naming rule shows DirectPlay as DirectStream; we apply it when recording so the
 * history, the statistics and the live view all say the same thing. A missing value means no ffmpeg ran
 * (DirectPlay) unless the server attached TranscodingInfo.
 */
export function displayPlayMethod(kind: MediaServerKind, reported: string | null | undefined, transcoding: boolean): PlayMethod {
  const method: PlayMethod =
    reported === 'Transcode' || reported === 'DirectStream' || reported === 'DirectPlay'
      ? reported
      : transcoding
        ? 'Transcode'
        : 'DirectPlay';
  if (kind !== 'jellyfin' && method === 'DirectPlay') return 'DirectStream';
  return method;
}
