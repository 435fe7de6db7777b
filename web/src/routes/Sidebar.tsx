import { NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useUpdateInfo } from '../api/auth';
import { clearSession } from '../store/preferences';

export const RELEASES_URL = 'https://github.com/reelstat/reelstat/releases';

const ITEMS = [
  { to: '/', key: 'home', icon: '⌂' },
  { to: '/libraries', key: 'libraries', icon: '▤' },
  { to: '/users', key: 'users', icon: '☺' },
  { to: '/activity', key: 'activity', icon: '≡' },
  { to: '/statistics', key: 'statistics', icon: '▥' },
  { to: '/timeline', key: 'timeline', icon: '↦' },
  { to: '/settings', key: 'settings', icon: '⚙' },
  { to: '/about', key: 'about', icon: 'ⓘ' },
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
      className={`${open ? 'block' : 'hidden'} fixed inset-y-0 left-0 z-30 w-60 overflow-y-auto border-r border-gray-800 bg-gray-900 p-3 lg:sticky lg:top-0 lg:block lg:h-screen`}
      aria-label={t('nav.label')}
    >
      <div className="mb-4 px-2 py-3 text-xl font-bold text-white">Reelstat</div>
      <nav>
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
                  <span aria-hidden className="w-4 text-center">
                    {item.icon}
                  </span>
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
              <span aria-hidden className="w-4 text-center">
                ⏻
              </span>
              {t('nav.logout')}
            </button>
          </li>
        </ul>
      </nav>
      <VersionCard />
    </aside>
  );
}
