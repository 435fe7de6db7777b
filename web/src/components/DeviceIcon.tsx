import { deviceIcon, type DeviceIcon as Icon } from '../lib/sessions';

const LOOK: Record<Icon, { bg: string; text: string; label: string }> = {
  android: { bg: 'bg-lime-600', text: 'A', label: 'Android' },
  ios: { bg: 'bg-gray-500', text: 'iOS', label: 'iOS' },
  apple: { bg: 'bg-gray-200 text-gray-900', text: '', label: 'Apple' },
  safari: { bg: 'bg-sky-600', text: 'S', label: 'Safari' },
  chrome: { bg: 'bg-amber-500', text: 'C', label: 'Chrome' },
  firefox: { bg: 'bg-orange-600', text: 'F', label: 'Firefox' },
  edge: { bg: 'bg-cyan-600', text: 'E', label: 'Edge' },
  opera: { bg: 'bg-red-600', text: 'O', label: 'Opera' },
  other: { bg: 'bg-gray-700', text: '?', label: 'Other' },
};

/** Device badge from client and device name (rule in lib/sessions.ts). */
export function DeviceIcon({ client, deviceName }: { client?: string | null; deviceName?: string | null }) {
  const icon = deviceIcon(client, deviceName);
  const look = LOOK[icon];
  return (
    <span
      data-icon={icon}
      role="img"
      aria-label={look.label}
      title={look.label}
      className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-xs font-bold text-white ${look.bg}`}
    >
      {icon === 'apple' ? (
        <svg viewBox="0 0 24 24" className="h-6 w-6" fill="currentColor" aria-hidden>
          <path d="M16.4 12.6c0-2.4 2-3.6 2.1-3.7-1.1-1.7-2.9-1.9-3.5-1.9-1.5-.2-2.9.9-3.7.9-.8 0-1.9-.9-3.2-.8-1.6 0-3.1 1-4 2.4-1.7 3-.4 7.4 1.2 9.8.8 1.2 1.8 2.5 3 2.4 1.2 0 1.7-.8 3.1-.8 1.5 0 1.9.8 3.2.8 1.3 0 2.2-1.2 3-2.4.9-1.4 1.3-2.7 1.3-2.8-.1 0-2.5-1-2.5-3.9ZM14 5.5c.7-.8 1.1-1.9 1-3-1 0-2.1.7-2.8 1.5-.6.7-1.2 1.8-1 2.9 1 .1 2.1-.6 2.8-1.4Z" />
        </svg>
      ) : (
        look.text
      )}
    </span>
  );
}
