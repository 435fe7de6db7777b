/** Formatting rules of SPEC.md §9. Pure functions, unit-tested in format.test.ts. */

export const TICKS_PER_SECOND = 10_000_000;

export function ticksToSeconds(ticks: number | null | undefined): number {
  return Math.max(0, Math.floor((ticks ?? 0) / TICKS_PER_SECOND));
}

/** "1:02:03" for an hour or more, else "2:03". */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const mm = hours > 0 ? String(minutes).padStart(2, '0') : String(minutes);
  return `${hours > 0 ? `${hours}:` : ''}${mm}:${String(seconds).padStart(2, '0')}`;
}

export function formatTicks(ticks: number | null | undefined): string {
  return formatClock(ticksToSeconds(ticks));
}

/** Bits per second → "850 Kbps", or "12.3 Mbps" from 1000 Kbps up. */
export function formatBitrate(bitsPerSecond: number | null | undefined): string {
  if (bitsPerSecond === null || bitsPerSecond === undefined || !Number.isFinite(bitsPerSecond)) return '-';
  const kbps = bitsPerSecond / 1000;
  if (kbps >= 1000) return `${(kbps / 1000).toFixed(1)} Mbps`;
  return `${Math.round(kbps)} Kbps`;
}

/** Video height → label: ≤240 240p, ≤360 360p, ≤480 480p, ≤720 720p, ≤1080 1080p, ≤2160 4K, above 8K. */
export function resolutionLabel(height: number | null | undefined): string {
  if (!height || height <= 0) return '-';
  if (height <= 240) return '240p';
  if (height <= 360) return '360p';
  if (height <= 480) return '480p';
  if (height <= 720) return '720p';
  if (height <= 1080) return '1080p';
  if (height <= 2160) return '4K';
  return '8K';
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes → KB/MB/GB/TB/PB (1024 steps, two decimals). */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) return '0 KB';
  let value = bytes / 1024;
  let unit = 1;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}

/** Item file size: MB until 1000 MB, then GB. */
export function formatItemSize(bytes: number | null | undefined): string {
  const mb = (bytes ?? 0) / (1024 * 1024);
  if (mb < 1000) return `${mb.toFixed(2)} MB`;
  return `${(mb / 1024).toFixed(2)} GB`;
}

export interface DurationParts {
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Seconds split with months of 30 days (library cards, SPEC.md §9). */
export function splitDuration(totalSeconds: number): DurationParts {
  let s = Math.max(0, Math.floor(totalSeconds));
  const months = Math.floor(s / (30 * 86400));
  s -= months * 30 * 86400;
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  return { months, days, hours, minutes, seconds: s - minutes * 60 };
}

/** Compact text: "1mo 2d 3h 4m"; zero parts are left out; "0m" for nothing. */
export function formatDuration(totalSeconds: number, labels = { mo: 'mo', d: 'd', h: 'h', m: 'm' }): string {
  const p = splitDuration(totalSeconds);
  const parts: string[] = [];
  if (p.months) parts.push(`${p.months}${labels.mo}`);
  if (p.days) parts.push(`${p.days}${labels.d}`);
  if (p.hours) parts.push(`${p.hours}${labels.h}`);
  if (p.minutes || parts.length === 0) parts.push(`${p.minutes}${labels.m}`);
  return parts.join(' ');
}

/** Date and time in the chosen clock (12h or 24h). */
export function formatDateTime(value: string | number | Date, hour12: boolean, locale?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '-';
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12,
  });
}

export function formatTime(value: string | number | Date, hour12: boolean, locale?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '-';
  return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', hour12 });
}

export interface TimeParts {
  days?: number | null;
  hours?: number | null;
  minutes?: number | null;
  seconds?: number | null;
}

/** The largest non-zero part of an "ago" object, or null when there is none (caller shows 'Never'). */
export function agoParts(parts: TimeParts | null | undefined): { unit: 'days' | 'hours' | 'minutes' | 'seconds'; value: number } | null {
  if (!parts) return null;
  for (const unit of ['days', 'hours', 'minutes', 'seconds'] as const) {
    const value = parts[unit];
    if (value && value > 0) return { unit, value };
  }
  if (parts.seconds === 0 || parts.minutes === 0) return { unit: 'seconds', value: 0 };
  return null;
}
