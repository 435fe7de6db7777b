/**
 * Real image bytes: a two-colour gradient PNG encoded with node:zlib, sized as requested; image tags; and
 * BlurHash strings computed from the same picture so that placeholders and images agree.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export const MAX_IMAGE_DIMENSION = 2000;

export function imageTag(ownerId: string, type: string, revision: number): string {
  return createHash('md5').update(`${ownerId}|${type}|${revision}`).digest('hex');
}

type Rgb = [number, number, number];

export function imageColors(seed: string): [Rgb, Rgb] {
  const h = createHash('md5').update(seed).digest();
  return [
    [h[0] ?? 0, h[1] ?? 0, h[2] ?? 0],
    [h[3] ?? 0, h[4] ?? 0, h[5] ?? 0],
  ];
}

/** Natural size of each image type (what the server would have on disk). */
export function naturalSize(type: string, kind: 'item' | 'user' | 'icon' = 'item'): [number, number] {
  if (kind === 'user') return [500, 500];
  if (kind === 'icon') return [128, 128];
  switch (type) {
    case 'Backdrop':
    case 'Thumb':
    case 'Art':
      return [1920, 1080];
    case 'Logo':
      return [800, 310];
    case 'Banner':
      return [758, 140];
    case 'Disc':
      return [1000, 1000];
    default:
      return [1000, 1500];
  }
}

export interface SizeRequest {
  width?: number;
  height?: number;
  maxWidth?: number;
  maxHeight?: number;
  fillWidth?: number;
  fillHeight?: number;
}

/** Jellyfin's sizing: explicit or fill sizes win; otherwise scale the natural size down to fit max bounds. */
export function resolveSize(natural: [number, number], req: SizeRequest): [number, number] {
  let [w, h] = natural;
  const aspect = w / h;
  const fw = req.fillWidth ?? req.width;
  const fh = req.fillHeight ?? req.height;
  if (fw && fh) {
    w = fw;
    h = fh;
  } else if (fw) {
    w = fw;
    h = Math.round(fw / aspect);
  } else if (fh) {
    h = fh;
    w = Math.round(fh * aspect);
  }
  if (req.maxWidth && w > req.maxWidth) {
    w = req.maxWidth;
    h = Math.round(w / aspect);
  }
  if (req.maxHeight && h > req.maxHeight) {
    h = req.maxHeight;
    w = Math.round(h * aspect);
  }
  const clamp = (n: number): number => Math.max(1, Math.min(MAX_IMAGE_DIMENSION, Math.round(n)));
  return [clamp(w), clamp(h)];
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

const pngCache = new Map<string, Buffer>();

/** A vertical gradient from colour a to colour b, as an RGB PNG. */
export function gradientPng(seed: string, width: number, height: number): Buffer {
  const key = `${seed}|${width}x${height}`;
  const hit = pngCache.get(key);
  if (hit) return hit;
  const [a, b] = imageColors(seed);
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    const t = height === 1 ? 0 : y / (height - 1);
    const r = Math.round(a[0] + (b[0] - a[0]) * t);
    const g = Math.round(a[1] + (b[1] - a[1]) * t);
    const bl = Math.round(a[2] + (b[2] - a[2]) * t);
    const off = y * row;
    raw[off] = 0;
    for (let x = 0; x < width; x++) {
      const p = off + 1 + x * 3;
      raw[p] = r;
      raw[p + 1] = g;
      raw[p + 2] = bl;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  if (pngCache.size > 256) pngCache.clear();
  pngCache.set(key, png);
  return png;
}

// ---- BlurHash (the public algorithm; 4x3 components over a small rendering of the gradient) ----

const B83 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~';

function encode83(value: number, length: number): string {
  let out = '';
  for (let i = 1; i <= length; i++) out += B83[Math.floor(value / 83 ** (length - i)) % 83];
  return out;
}

function srgbToLinear(v: number): number {
  const x = v / 255;
  return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
}

function linearToSrgb(v: number): number {
  const x = Math.max(0, Math.min(1, v));
  return x <= 0.0031308 ? Math.round(x * 12.92 * 255 + 0.5) : Math.round((1.055 * x ** (1 / 2.4) - 0.055) * 255 + 0.5);
}

const blurCache = new Map<string, string>();

export function blurhash(seed: string, width: number, height: number): string {
  const key = `${seed}|${width}|${height}`;
  const hit = blurCache.get(key);
  if (hit) return hit;
  const [a, b] = imageColors(seed);
  const W = 8;
  const H = 8;
  const cx = width >= height ? 4 : 3;
  const cy = width >= height ? 3 : 4;
  const factors: [number, number, number][] = [];
  for (let j = 0; j < cy; j++) {
    for (let i = 0; i < cx; i++) {
      const norm = i === 0 && j === 0 ? 1 : 2;
      let r = 0;
      let g = 0;
      let bl = 0;
      for (let y = 0; y < H; y++) {
        const t = y / (H - 1);
        const pr = srgbToLinear(a[0] + (b[0] - a[0]) * t);
        const pg = srgbToLinear(a[1] + (b[1] - a[1]) * t);
        const pb = srgbToLinear(a[2] + (b[2] - a[2]) * t);
        for (let x = 0; x < W; x++) {
          const basis = Math.cos((Math.PI * i * x) / W) * Math.cos((Math.PI * j * y) / H);
          r += basis * pr;
          g += basis * pg;
          bl += basis * pb;
        }
      }
      const scale = norm / (W * H);
      factors.push([r * scale, g * scale, bl * scale]);
    }
  }
  const dc = factors[0] as [number, number, number];
  const ac = factors.slice(1);
  let hash = encode83(cx - 1 + (cy - 1) * 9, 1);
  let maxValue = 1;
  if (ac.length > 0) {
    const actualMax = Math.max(...ac.flat().map(Math.abs));
    const quantised = Math.max(0, Math.min(82, Math.floor(actualMax * 166 - 0.5)));
    maxValue = (quantised + 1) / 166;
    hash += encode83(quantised, 1);
  } else {
    hash += encode83(0, 1);
  }
  hash += encode83((linearToSrgb(dc[0]) << 16) + (linearToSrgb(dc[1]) << 8) + linearToSrgb(dc[2]), 4);
  const signPow = (v: number): number => Math.sign(v) * Math.abs(v) ** 0.5;
  for (const f of ac) {
    const q = (v: number): number => Math.max(0, Math.min(18, Math.floor(signPow(v / maxValue) * 9 + 9.5)));
    hash += encode83(q(f[0]) * 19 * 19 + q(f[1]) * 19 + q(f[2]), 2);
  }
  if (blurCache.size > 50_000) blurCache.clear();
  blurCache.set(key, hash);
  return hash;
}
