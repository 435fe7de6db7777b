/** Item, user and device images (generated PNGs). */
import { gradientPng, imageColors, naturalSize, resolveSize } from '../images.js';
import type { SimItem, SimUser } from '../library/types.js';
import { clientByKey } from '../sessions/clients.js';
import type { RequestContext } from './context.js';
import { HttpError } from './params.js';
import { route, type Route, notFound } from './route.js';
import type { RouteKit } from './route-kit.js';

/** Common browser/OS device icon names a dashboard may ask for, besides the simulator's client keys. */
const DEVICE_ICON_NAMES = new Set([
  'android',
  'apple',
  'chrome',
  'edge',
  'edgechromium',
  'firefox',
  'html5',
  'kodi',
  'msedge',
  'opera',
  'other',
  'playstation',
  'roku',
  'safari',
  'samsungtv',
  'webos',
  'windows',
  'xbox',
]);

export function imageRoutes(kit: RouteKit): Route[] {
  const { st } = kit;
  const userImage = (ctx: RequestContext, userRaw: string | undefined): void => {
    if (!userRaw) throw new HttpError(400, 'Error processing request.');
    const u = st.findUser(userRaw);
    if (!u || !u.hasImage) notFound();
    sendImage(ctx, `${(u as SimUser).id}|user|${(u as SimUser).imageRevision}`, naturalSize('Primary', 'user'));
  };

  const sendImage = (ctx: RequestContext, seed: string, natural: [number, number]): void => {
    const p = ctx.params;
    const [w, h] = resolveSize(natural, {
      width: p.int('width'),
      height: p.int('height'),
      maxWidth: p.int('maxWidth'),
      maxHeight: p.int('maxHeight'),
      fillWidth: p.int('fillWidth'),
      fillHeight: p.int('fillHeight'),
    });
    const png = gradientPng(seed, w, h);
    ctx.res.writeHead(200, {
      'Content-Type': 'image/png',
      'Content-Length': png.length,
      'Cache-Control': 'public',
      'Last-Modified': new Date(st.startedAtMs).toUTCString(),
    });
    ctx.res.end(ctx.method === 'HEAD' ? undefined : png);
  };

  const itemImage = (ctx: RequestContext): void => {
    const [rawId, rawType, rawIndex] = ctx.groups;
    const item = st.findItem(rawId as string);
    const type = (rawType ?? '').toLowerCase();
    const kind = item?.images.find((k) => k.toLowerCase() === type);
    if (!item || !kind) notFound();
    const index = rawIndex === undefined ? 0 : Number(rawIndex);
    if (!(index === 0)) notFound();
    sendImage(ctx, `${(item as SimItem).id}|${kind}|${(item as SimItem).revision}`, naturalSize(kind as string));
  };

  return [
    route(['GET', 'HEAD'], '/Items/{itemId}/Images/{type}', 'anon', itemImage),
    route(['GET', 'HEAD'], '/Items/{itemId}/Images/{type}/{index}', 'anon', itemImage),
    route(['GET', 'HEAD'], '/UserImage', 'anon', (c) => userImage(c, c.params.get('userId')), { flavors: ['jellyfin'] }),
    route(['GET', 'HEAD'], '/Users/{userId}/Images/{type}', 'anon', (c) => userImage(c, c.groups[0])),
    route(['GET', 'HEAD'], '/Users/{userId}/Images/{type}/{index}', 'anon', (c) => userImage(c, c.groups[0])),
    route(['GET', 'HEAD'], '/web/assets/img/devices/{name}', 'anon', (c) => {
      const file = (c.groups[0] as string).toLowerCase();
      const key = file.replace(/\.(png|svg)$/, '');
      if (!clientByKey(key) && !DEVICE_ICON_NAMES.has(key)) notFound();
      if (file.endsWith('.svg')) {
        const [[r, g, b]] = imageColors(`device|${key}`);
        const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="24" fill="rgb(${r},${g},${b})"/></svg>`;
        c.res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Content-Length': Buffer.byteLength(svg), 'Cache-Control': 'public' });
        c.res.end(c.method === 'HEAD' ? undefined : svg);
        return;
      }
      sendImage(c, `device|${key}`, naturalSize('Primary', 'icon'));
    }),
  ];
}
