import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useMediaServers, type MediaServer } from '../../api/media-servers';
import { ALL_SERVERS, useServerSelection } from '../../store/server-selection';

/** Makes a server (or ALL_SERVERS) the one every screen reads, and reads every screen's data again. */
export function useSwitchServer() {
  const queryClient = useQueryClient();
  const select = useServerSelection((state) => state.select);
  return (next: string, servers: MediaServer[]) => {
    const defaultServer = servers.find((server) => server.IsDefault) ?? servers[0];
    select(next === defaultServer?.Id ? null : next);
    // Every screen's data belongs to the server it was read from: read it again for the new one.
    void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== 'media-servers' });
  };
}

/**
 * The server switcher of the app shell (shown once two servers are linked): every screen reads the chosen
 * server; "All servers" sums them where that makes sense. The choice is remembered in the browser.
 */
export function ServerSwitcher() {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const servers = useMediaServers();
  const selected = useServerSelection((state) => state.selected);
  const select = useServerSelection((state) => state.select);
  const switchServer = useSwitchServer();
  const list = servers.data ?? [];
  const defaultServer = list.find((server) => server.IsDefault) ?? list[0];

  // A remembered server that was removed (or a restored database) falls back to the default one.
  useEffect(() => {
    if (!servers.data || !selected || selected === ALL_SERVERS) return;
    if (!servers.data.some((server) => server.Id === selected)) {
      select(null);
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== 'media-servers' });
    }
  }, [servers.data, selected, select, queryClient]);

  if (list.length < 2 && (!selected || selected === defaultServer?.Id)) return null;
  const value = selected ?? defaultServer?.Id ?? '';
  return (
    <div className="mb-4 px-2">
      <label htmlFor={`${id}-server`} className="label">
        {t('servers.switcher')}
      </label>
      <select
        id={`${id}-server`}
        className="input w-full"
        data-testid="server-switcher"
        value={value}
        onChange={(event) => switchServer(event.target.value, list)}
      >
        {list.map((server) => (
          <option key={server.Id} value={server.Id}>
            {server.Name}
            {server.IsDefault ? ` (${t('servers.defaultTag')})` : ''}
          </option>
        ))}
        <option value={ALL_SERVERS}>{t('servers.all')}</option>
      </select>
    </div>
  );
}
