import { useId } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMediaServers } from '../../api/media-servers';
import { ALL_SERVERS, useServerSelection } from '../../store/server-selection';
import { useSwitchServer } from './ServerSwitcher';

/**
 * Screens whose data belongs to one server (a library and its items, an item, the timeline, the settings):
 * they cannot sum servers, so under "All servers" they read the default server. The libraries list itself lists
 * every server's libraries (opening one switches to its server).
 */
const ONE_SERVER_SCREENS = ['/libraries/', '/timeline', '/settings'];

export function isOneServerScreen(pathname: string): boolean {
  return ONE_SERVER_SCREENS.some((screen) =>
    screen.endsWith('/') ? pathname.startsWith(screen) : pathname === screen || pathname.startsWith(`${screen}/`),
  );
}

/**
 * Says so on those screens while "All servers" is chosen, names the server shown, and lets the user pick
 * another one (which switches the whole app to it), so no screen shows one server without saying which.
 */
export function OneServerNotice() {
  const { t } = useTranslation();
  const id = useId();
  const { pathname } = useLocation();
  const selected = useServerSelection((state) => state.selected);
  const servers = useMediaServers();
  const switchServer = useSwitchServer();
  if (selected !== ALL_SERVERS || !isOneServerScreen(pathname)) return null;
  const list = servers.data ?? [];
  const shown = list.find((server) => server.IsDefault) ?? list[0];
  if (!shown) return null;
  return (
    <div
      role="status"
      data-testid="one-server-notice"
      className="mb-4 flex flex-wrap items-center gap-3 rounded border border-amber-700 bg-amber-950/40 px-4 py-3 text-sm"
    >
      <p className="flex-1">{t('servers.oneServer', { name: shown.Name })}</p>
      <label htmlFor={`${id}-pick`} className="sr-only">
        {t('servers.pickOne')}
      </label>
      <select id={`${id}-pick`} className="input w-auto" value={shown.Id} onChange={(event) => switchServer(event.target.value, list)}>
        {list.map((server) => (
          <option key={server.Id} value={server.Id}>
            {server.Name}
          </option>
        ))}
      </select>
    </div>
  );
}
