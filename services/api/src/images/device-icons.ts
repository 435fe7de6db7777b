/**
 * Device icons for /proxy/web/assets/img/devices/. Served by Reelstat itself from a fixed set (SPEC.md §2's
 * families), so the device name, which comes from the client, never reaches a URL.
 */
const FAMILIES = {
  android: { colour: '#3ddc84', letter: 'A' },
  apple: { colour: '#a2aaad', letter: '' },
  chrome: { colour: '#4285f4', letter: 'C' },
  edge: { colour: '#0078d7', letter: 'E' },
  firefox: { colour: '#ff7139', letter: 'F' },
  opera: { colour: '#ff1b2d', letter: 'O' },
  safari: { colour: '#006cff', letter: 'S' },
  other: { colour: '#6b7280', letter: '?' },
} as const;
export type DeviceFamily = keyof typeof FAMILIES;

export function deviceFamily(deviceName: string): DeviceFamily {
  const name = deviceName.toLowerCase();
  if (/iphone|ipad|ios|apple|mac/.test(name)) return 'apple';
  for (const family of ['android', 'safari', 'chrome', 'firefox', 'edge', 'opera'] as const) if (name.includes(family)) return family;
  return 'other';
}

export function deviceIcon(deviceName: string): string {
  const family = deviceFamily(deviceName);
  const { colour, letter } = FAMILIES[family];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="${family}"><circle cx="32" cy="32" r="30" fill="${colour}"/><text x="32" y="42" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
}
