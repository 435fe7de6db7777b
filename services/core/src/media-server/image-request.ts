/**
 * Image requests for the image proxy. Every part that ends up in the URL path is checked against an allow-list
 * or a strict pattern, so a request can only ever name an image.
 */
import { canonicalMediaServerId } from './ids.js';
import { MediaServerError } from './media-server-error.js';
import type { QueryParams } from './query-params.js';

/** ImageType values of both servers (Emby adds Thumbnail, LogoLight, LogoLightColor). */
export const IMAGE_TYPES = [
  'Primary',
  'Art',
  'Backdrop',
  'Banner',
  'Logo',
  'Thumb',
  'Disc',
  'Box',
  'Screenshot',
  'Menu',
  'Chapter',
  'BoxRear',
  'Profile',
  'Thumbnail',
  'LogoLight',
  'LogoLightColor',
] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export const IMAGE_FORMATS = ['jpg', 'png', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export interface ImageSizing {
  /** Tag from ImageTags / PrimaryImageTag: lets the server and caches key on the exact image. */
  tag?: string;
  fillWidth?: number;
  fillHeight?: number;
  maxWidth?: number;
  maxHeight?: number;
  /** 1–100 (JPEG/WebP quality). */
  quality?: number;
  format?: ImageFormat;
}

export interface ItemImageRequest extends ImageSizing {
  kind: 'item';
  itemId: string;
  /** Default Primary. */
  imageType?: ImageType;
  /** For Backdrop and other multi-image types. */
  index?: number;
}

export interface UserImageRequest extends ImageSizing {
  kind: 'user';
  userId: string;
}

export type ImageRequest = ItemImageRequest | UserImageRequest;

export interface ImageFetchOptions {
  /** Conditional request headers forwarded from the browser; a match yields status 304 and no body. */
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  signal?: AbortSignal;
}

/** The upstream answer for the proxy to stream on: status, cache headers and the body stream. */
export interface MediaServerImage {
  status: 200 | 304;
  contentType: string | undefined;
  contentLength: number | undefined;
  etag: string | undefined;
  lastModified: string | undefined;
  cacheControl: string | undefined;
  /** Null for 304. The caller must consume or cancel it. */
  body: ReadableStream<Uint8Array> | null;
}

const MAX_DIMENSION = 10_000;
const TAG = /^[A-Za-z0-9_-]{1,128}$/;

export function validatedItemImagePath(request: ItemImageRequest): string {
  const id = canonicalMediaServerId(request.itemId, 'item id');
  const type = request.imageType ?? 'Primary';
  if (!(IMAGE_TYPES as readonly string[]).includes(type)) throw invalid(`unknown image type ${JSON.stringify(type).slice(0, 40)}`);
  if (request.index !== undefined && !(Number.isInteger(request.index) && request.index >= 0 && request.index <= 1000)) {
    throw invalid('image index must be an integer from 0 to 1000');
  }
  return `/Items/${id}/Images/${type}${request.index === undefined ? '' : `/${request.index}`}`;
}

export function imageSizingParams(sizing: ImageSizing): QueryParams {
  if (sizing.tag !== undefined && !TAG.test(sizing.tag)) throw invalid('image tag must be 1–128 letters, digits, - or _');
  for (const key of ['fillWidth', 'fillHeight', 'maxWidth', 'maxHeight'] as const) {
    const v = sizing[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1 && v <= MAX_DIMENSION))
      throw invalid(`${key} must be an integer from 1 to ${MAX_DIMENSION}`);
  }
  if (sizing.quality !== undefined && !(Number.isInteger(sizing.quality) && sizing.quality >= 1 && sizing.quality <= 100)) {
    throw invalid('quality must be an integer from 1 to 100');
  }
  if (sizing.format !== undefined && !(IMAGE_FORMATS as readonly string[]).includes(sizing.format))
    throw invalid('format must be jpg, png or webp');
  return {
    tag: sizing.tag,
    fillWidth: sizing.fillWidth,
    fillHeight: sizing.fillHeight,
    maxWidth: sizing.maxWidth,
    maxHeight: sizing.maxHeight,
    quality: sizing.quality,
    format: sizing.format,
  };
}

function invalid(detail: string): MediaServerError {
  return new MediaServerError('invalid_request', `Invalid image request: ${detail}`);
}
