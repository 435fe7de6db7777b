import { NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useUpdateInfo } from '../api/auth';
import { clearSession } from '../store/preferences';
import { ServerSwitcher } from './servers/ServerSwitcher';

export const RELEASES_URL = 'https://github.com/reelstat/reelstat/releases';

const ICONS: Record<string, string> = {
  home: 'M3 11l9-8 9 8v10a1 1 0 0 1-1 1h-5v-7H9v7H4a1 1 0 0 1-1-1z',
  libraries: 'M4 4h4v16H4zM10 4h4v16h-4zM16 5l3.5-1 3 15-3.5 1z',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10c0-4 3-6 7-6s7 2 7 6zm15-10a3 3 0 1 0 0-6M18 15c2.5.4 4 2.3 4 6',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  statistics: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  timeline: 'M4 6h16M4 12h10M4 18h13',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14.5 2h-5l-.4 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2l.4 2.6h5l.4-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z',
  about: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zm0-11v6m0-9.5v.5',
  logout: 'M15 4h4a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-4M10 17l5-5-5-5M15 12H3',
};

function Icon({ name }: { name: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-4 w-4 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d={ICONS[name]} />
    </svg>
  );
}

const ITEMS = [
  { to: '/', key: 'home' },
  { to: '/libraries', key: 'libraries' },
  { to: '/users', key: 'users' },
  { to: '/activity', key: 'activity' },
  { to: '/statistics', key: 'statistics' },
  { to: '/timeline', key: 'timeline' },
  { to: '/settings', key: 'settings' },
  { to: '/about', key: 'about' },
] as const;

/** Active by path match: "/" only on the root, others on their prefix. */
export function isActivePath(pathname: string, to: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}

export function logout(): void {
  clearSession();
  window.location.reload();
}

function VersionCard() {
  const { t } = useTranslation();
  const update = useUpdateInfo();
  if (!update.data) return null;
  return (
    <div className="card mt-4 hidden text-xs lg:block" data-testid="version-card">
      <div className="text-gray-400">{t('nav.version', { version: update.data.current_version })}</div>
      {update.data.update_available && (
        <a className="link mt-1 block" href={RELEASES_URL} target="_blank" rel="noreferrer">
          {t('nav.updateAvailable', { version: update.data.latest_version })}
        </a>
      )}
    </div>
  );
}

export function Sidebar({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <aside
      className={`${open ? 'block' : 'hidden'} fixed inset-y-0 left-0 z-30 w-60 shrink-0 overflow-y-auto border-r border-gray-800 bg-gray-900 p-3 lg:static lg:block lg:overflow-visible`}
    >
      <div className="lg:sticky lg:top-3">
        <div className="mb-4 px-2 py-3 text-xl font-bold text-white">Reelstat</div>
        <ServerSwitcher />
        <nav aria-label={t('nav.label')}>
          <ul className="space-y-1">
            {ITEMS.map((item) => {
              const active = isActivePath(pathname, item.to);
              return (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.to === '/'}
                    onClick={onNavigate}
                    aria-current={active ? 'page' : undefined}
                    className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm ${active ? 'bg-blue-600/20 text-blue-300' : 'text-gray-300 hover:bg-gray-800'}`}
                  >
                    <Icon name={item.key} />
                    {t(`nav.${item.key}`)}
                  </NavLink>
                </li>
              );
            })}
            <li>
              <button
                type="button"
                onClick={logout}
                className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm text-gray-300 hover:bg-gray-800"
              >
                <Icon name="logout" />
                {t('nav.logout')}
              </button>
            </li>
          </ul>
        </nav>
        <VersionCard />
      </div>
    </aside>
  );
}
