import { useEffect, useState } from 'react';
import { authHeaders } from './client';

/**
 * Proxied images need the same credentials as the API, which an <img src> cannot send: they are fetched with the
 * bearer token and shown from an object URL. One fetch per URL per page load (failures are remembered too).
 */
const cache = new Map<string, Promise<string | null>>();
const MAX_CACHED = 400;

function load(url: string): Promise<string | null> {
  let entry = cache.get(url);
  if (!entry) {
    entry = fetch(url, { headers: authHeaders() })
      .then(async (response) => {
        if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('image/')) return null;
        return URL.createObjectURL(await response.blob());
      })
      .catch(() => null);
    cache.set(url, entry);
    if (cache.size > MAX_CACHED) {
      const oldest = cache.keys().next().value as string;
      void cache.get(oldest)?.then((objectUrl) => objectUrl && URL.revokeObjectURL(objectUrl));
      cache.delete(oldest);
    }
  }
  return entry;
}

/** undefined while loading, null when there is no image, else a URL for <img src>. */
export function useAuthImage(url: string | null): string | null | undefined {
  const [src, setSrc] = useState<string | null | undefined>(url ? undefined : null);
  useEffect(() => {
    if (!url) {
      setSrc(null);
      return;
    }
    let live = true;
    setSrc(undefined);
    void load(url).then((result) => {
      if (live) setSrc(result);
    });
    return () => {
      live = false;
    };
  }, [url]);
  return src;
}
