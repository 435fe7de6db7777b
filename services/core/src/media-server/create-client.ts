/** Builds the client for a server whose kind is known (stored with the server link after probing). */
import { EmbyClient } from './emby-client.js';
import { JellyfinClient } from './jellyfin-client.js';
import type { MediaServerClient, MediaServerClientOptions, MediaServerKind } from './media-server-client.js';

export interface CreateMediaServerClientOptions extends MediaServerClientOptions {
  kind: MediaServerKind;
}

export function createMediaServerClient(options: CreateMediaServerClientOptions): MediaServerClient {
  const { kind, ...rest } = options;
  switch (kind) {
    case 'jellyfin':
      return new JellyfinClient(rest);
    case 'emby':
      return new EmbyClient(rest);
    default:
      throw new RangeError(`Unknown media server kind: ${String(kind)}`);
  }
}
