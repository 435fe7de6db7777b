import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../socket/socket';
import type { Session } from '../../api/types';
import { useConfig } from '../../api/auth';
import { SessionCard } from './SessionCard';
import { sessionsOfServer, useSessionsStore, visibleSessions } from './sessions-store';
import { useMediaServers } from '../../api/media-servers';
import { useServerSelection } from '../../store/server-selection';

/** The IP link needs geolocation to be configured (SPEC.md §2: an account id, or here also a local database). */
export function useGeolocationEnabled(): boolean {
  return useConfig().data?.settings.GEOLOCATION_ENABLED ?? false;
}

/** The current time, ticking every second: the cards' progress and durations move with it. */
export function useSecondClock(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A titled grid of session cards, or the "no sessions" line (the administrator's home and a viewer's). */
export function SessionsPanel({
  titleId,
  sessions,
  card,
}: {
  titleId: string;
  sessions: Session[];
  card: (session: Session) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={titleId} className="mb-8">
      <h2 id={titleId} className="mb-3 text-lg font-semibold text-white">
        {t('home.sessions')}
      </h2>
      {sessions.length === 0 ? (
        <p className="card text-sm text-gray-400" data-testid="no-sessions">
          {t('home.noSessions')}
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">{sessions.map(card)}</div>
      )}
    </section>
  );
}

export function SessionsSection({ detail = false }: { detail?: boolean }) {
  const sessions = useSessionsStore((state) => state.sessions);
  const setSessions = useSessionsStore((state) => state.set);
  const geolocationEnabled = useGeolocationEnabled();
  const now = useSecondClock();
  useSocketEvent<Session[]>('sessions', (payload) => setSessions(Array.isArray(payload) ? payload : []));
  // The socket pushes every server's sessions: show the selected server's (all of them for "All servers").
  const servers = useMediaServers().data ?? [];
  const selected = useServerSelection((state) => state.selected);
  const scope = selected ?? servers.find((server) => server.IsDefault)?.Id;
  const serverNames = new Map(servers.map((server) => [server.Id, server.Name]));
  const shown = sessionsOfServer(visibleSessions(sessions ?? []), scope);
  return (
    <SessionsPanel
      titleId="sessions-title"
      sessions={shown}
      card={(session) => (
        <SessionCard
          key={`${session.ServerId ?? ''}/${session.Id}`}
          session={session}
          detail={detail}
          geolocationEnabled={geolocationEnabled}
          now={now}
          serverName={servers.length > 1 ? serverNames.get(session.ServerId ?? '') : undefined}
        />
      )}
    />
  );
}
