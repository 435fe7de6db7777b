/** Display rules of the live session cards (SPEC.md §2 Home). Pure, unit-tested. */

export type DeviceIcon = 'android' | 'ios' | 'apple' | 'safari' | 'chrome' | 'firefox' | 'edge' | 'opera' | 'other';

const BROWSERS: DeviceIcon[] = ['edge', 'opera', 'firefox', 'chrome', 'safari'];

function browserOf(text: string): DeviceIcon | null {
  // Edge and Opera names contain "chrome" in some user agents: test them first.
  for (const name of BROWSERS) if (text.includes(name)) return name;
  if (text.includes('edg')) return 'edge';
  return null;
}

/**
 * Icon from client and device name: the iOS mobile client on an iPhone is 'apple'; web clients are matched on
 * the device name (the browser); other clients by their platform.
 */
export function deviceIcon(client: string | null | undefined, deviceName: string | null | undefined): DeviceIcon {
  const c = (client ?? '').toLowerCase();
  const d = (deviceName ?? '').toLowerCase();
  const iosClient = c.includes('ios') || c.includes('swiftfin') || c.includes('infuse');
  if (iosClient && d.includes('iphone')) return 'apple';
  if (c.includes('web')) return browserOf(d) ?? 'other';
  if (c.includes('android') || d.includes('android')) return 'android';
  if (iosClient || d.includes('ipad') || d.includes('iphone')) return 'ios';
  return browserOf(c) ?? browserOf(d) ?? 'other';
}

export interface TitleSource {
  Type?: string | null;
  Name?: string | null;
  SeriesName?: string | null;
  ParentIndexNumber?: number | null;
  IndexNumber?: number | null;
  Artists?: string[] | null;
}

/** Title rule: "Series - Episode" with "S1 - E2" for episodes; for audio the artists; else the name. */
export function sessionTitle(item: TitleSource): { title: string; subtitle: string | null } {
  const name = item.Name ?? '';
  if (item.Type === 'Episode' && item.SeriesName) {
    const season = item.ParentIndexNumber ?? null;
    const episode = item.IndexNumber ?? null;
    const se = season !== null && episode !== null ? `S${season} - E${episode}` : null;
    return { title: `${item.SeriesName} - ${name}`, subtitle: se };
  }
  if (item.Type === 'Audio') {
    const artists = (item.Artists ?? []).filter(Boolean).join(', ');
    return { title: name, subtitle: artists || null };
  }
  return { title: name, subtitle: null };
}

/** Public address: not 10.x, not 172.16-31.x, not 192.168.x (and not loopback, link-local or IPv6 local). */
export function isPublicIp(address: string | null | undefined): boolean {
  if (!address) return false;
  const ip = address.replace(/^::ffff:/, '');
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const a = Number(v4[1]);
    const b = Number(v4[2]);
    if (a === 10 || a === 127 || (a === 169 && b === 254)) return false;
    if (a === 172 && b >= 16 && b <= 31) return false;
    if (a === 192 && b === 168) return false;
    return true;
  }
  const lower = ip.toLowerCase();
  if (lower === '::1' || lower.startsWith('fe80') || lower.startsWith('fc') || lower.startsWith('fd')) return false;
  return lower.includes(':');
}

/** End time of playback: now plus the remaining runtime. */
export function playbackEta(nowMs: number, positionTicks: number, runtimeTicks: number): Date | null {
  if (!runtimeTicks || runtimeTicks <= 0) return null;
  const remainingMs = Math.max(0, runtimeTicks - positionTicks) / 10_000;
  return new Date(nowMs + remainingMs);
}

export function progressPercent(positionTicks: number | null | undefined, runtimeTicks: number | null | undefined): number {
  if (!runtimeTicks || runtimeTicks <= 0) return 0;
  return Math.min(100, Math.max(0, ((positionTicks ?? 0) / runtimeTicks) * 100));
}
