import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../socket/socket';
import type { Session } from '../../api/types';
import { useConfig } from '../../api/auth';
import { SessionCard } from './SessionCard';
import { useSessionsStore, visibleSessions } from './sessions-store';

/** The IP link needs geolocation to be configured (SPEC.md §2: an account id, or here also a local database). */
export function useGeolocationEnabled(): boolean {
  return useConfig().data?.settings.GEOLOCATION_ENABLED ?? false;
}

export function SessionsSection({ detail = false }: { detail?: boolean }) {
  const { t } = useTranslation();
  const sessions = useSessionsStore((state) => state.sessions);
  const setSessions = useSessionsStore((state) => state.set);
  const geolocationEnabled = useGeolocationEnabled();
  const [now, setNow] = useState(Date.now());
  useSocketEvent<Session[]>('sessions', (payload) => setSessions(Array.isArray(payload) ? payload : []));
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const shown = visibleSessions(sessions ?? []);
  return (
    <section aria-labelledby="sessions-title" className="mb-8">
      <h2 id="sessions-title" className="mb-3 text-lg font-semibold text-white">
        {t('home.sessions')}
      </h2>
      {shown.length === 0 ? (
        <p className="card text-sm text-gray-400" data-testid="no-sessions">
          {t('home.noSessions')}
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
          {shown.map((session) => (
            <SessionCard key={session.Id} session={session} detail={detail} geolocationEnabled={geolocationEnabled} now={now} />
          ))}
        </div>
      )}
    </section>
  );
}
