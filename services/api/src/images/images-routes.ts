import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Request, Response } from 'express';
import {
  AppError,
  MediaServerError,
  createMediaServerClient,
  usableApiKey,
  type ImageRequest,
  type MediaServerClient,
  type MediaServerLink,
  type Runtime,
} from '@reelstat/core';
import { ALL_SERVERS, deviceImageQuery, itemImageQuery } from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { deviceIcon } from './device-icons.js';

/**
 * Image proxies of SPEC.md §7. Public, because the dashboard loads them with <img>, which cannot send a
 * token (docs/security.md): they only ever name an image of the linked media server by a validated id and
 * bounded sizes, never a path, so they cannot be used as an open proxy. Bodies are streamed, capped in
 * bytes, and carry cache headers.
 */
const MAX_BYTES = 15 * 1024 * 1024;
const clients = new Map<string, MediaServerClient>();

async function client(runtime: Runtime, serverId: string | undefined, request: ImageRequest): Promise<MediaServerClient> {
  const links = runtime.services.mediaServers;
  // "All servers": the image comes from the server that has the item or user (the default one otherwise).
  const holder = async () =>
    (request.kind === 'item' ? await links.holderOf('item', request.itemId) : await links.holderOf('user', request.userId)) ??
    (await links.getDefault());
  const link: MediaServerLink | undefined =
    serverId === ALL_SERVERS ? await holder() : serverId ? await links.get(serverId) : await links.getDefault();
  if (!link) throw AppError.conflict('No media server is linked yet');
  const key = `${link.id}|${link.url}|${usableApiKey(link)}`;
  let found = clients.get(key);
  if (!found) {
    for (const old of clients.keys()) if (old.startsWith(`${link.id}|`)) clients.delete(old);
    found = createMediaServerClient(link);
    clients.set(key, found);
  }
  return found;
}

class ByteCap extends Transform {
  private seen = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.seen += chunk.length;
    if (this.seen > MAX_BYTES) callback(new Error(`image larger than ${MAX_BYTES} bytes`));
    else callback(null, chunk);
  }
}

async function proxy(runtime: Runtime, serverId: string | undefined, req: Request, res: Response, request: ImageRequest) {
  const media = await client(runtime, serverId, request);
  const abort = new AbortController();
  req.on('close', () => abort.abort());
  let image;
  try {
    image = await media.fetchImage(request, {
      ifNoneMatch: req.get('if-none-match') ?? undefined,
      ifModifiedSince: req.get('if-modified-since') ?? undefined,
      signal: abort.signal,
    });
  } catch (error) {
    if (error instanceof MediaServerError) {
      if (error.kind === 'not_found') throw AppError.notFound('Image not found');
      if (error.kind === 'invalid_request') throw AppError.badRequest(error.message);
      throw new AppError(502, 'media_server_error', `The media server did not give the image: ${error.message}`);
    }
    throw error;
  }
  // A tagged request names one exact image version, so browsers may keep it; untagged ones are revalidated.
  res.set('Cache-Control', request.tag ? 'private, max-age=31536000, immutable' : 'private, max-age=3600');
  if (image.etag) res.set('ETag', image.etag);
  if (image.lastModified) res.set('Last-Modified', image.lastModified);
  res.set('X-Content-Type-Options', 'nosniff');
  if (image.status === 304 || !image.body) {
    res.status(304).end();
    return;
  }
  if (image.contentLength !== undefined && image.contentLength > MAX_BYTES) {
    await image.body.cancel();
    throw new AppError(502, 'image_too_large', `The image is larger than ${MAX_BYTES} bytes`);
  }
  res.status(200).type(image.contentType ?? 'application/octet-stream');
  if (image.contentLength !== undefined) res.set('Content-Length', String(image.contentLength));
  await pipeline(Readable.fromWeb(image.body as WebReadableStream<Uint8Array>), new ByteCap(), res).catch(() => res.destroy());
}

function itemImageRoute(kind: 'Primary' | 'Backdrop') {
  return route({
    method: 'get',
    path: `/proxy/Items/Images/${kind}`,
    tag: 'images',
    summary: `An item's ${kind === 'Primary' ? 'poster' : 'backdrop'} from the media server (id and sizes only; max 2000 px)`,
    access: 'public',
    servers: 'all',
    query: itemImageQuery,
    handle: ({ query, req, res, runtime, serverId }) =>
      proxy(runtime, serverId, req, res, {
        kind: 'item',
        itemId: query.id,
        imageType: kind,
        fillWidth: query.fillWidth,
        fillHeight: query.fillHeight,
        maxWidth: query.maxWidth,
        maxHeight: query.maxHeight,
        quality: query.quality,
        tag: query.tag,
      }),
  });
}

export const imagesRoutes = [
  itemImageRoute('Primary'),
  itemImageRoute('Backdrop'),
  route({
    method: 'get',
    path: '/proxy/Users/Images/Primary',
    tag: 'images',
    summary: "A media-server user's avatar (id and sizes only; max 2000 px)",
    access: 'public',
    servers: 'all',
    query: itemImageQuery,
    handle: ({ query, req, res, runtime, serverId }) =>
      proxy(runtime, serverId, req, res, {
        kind: 'user',
        userId: query.id,
        fillWidth: query.fillWidth,
        fillHeight: query.fillHeight,
        maxWidth: query.maxWidth,
        maxHeight: query.maxHeight,
        quality: query.quality,
        tag: query.tag,
      }),
  }),
  route({
    method: 'get',
    path: '/proxy/web/assets/img/devices/',
    tag: 'images',
    summary: 'An SVG icon for a device name (android, apple, chrome, edge, firefox, opera, safari, other); served by Reelstat',
    access: 'public',
    query: deviceImageQuery,
    handle: async ({ query, res }) => {
      res.set('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(deviceIcon(query.devicename));
    },
  }),
];
