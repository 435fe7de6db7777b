import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Session } from '../../api/types';
import { useSocketEvent } from '../../socket/socket';
import { SessionCard } from '../home/SessionCard';
import { visibleSessions } from '../home/sessions-store';

/**
 * A viewer's own live sessions. The server sends a viewer's socket only the sessions of their own media-server
 * user (services/api/src/socket/viewer-events.ts), so everything received is shown.
 */
export function OwnSessions() {
  const { t } = useTranslation();
  const [sessions, setSessions] = useState<Session[]>([]);
  const [now, setNow] = useState(Date.now());
  useSocketEvent<Session[]>('sessions', (payload) => setSessions(Array.isArray(payload) ? visibleSessions(payload) : []));
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section aria-labelledby="own-sessions-title" className="mb-8">
      <h2 id="own-sessions-title" className="mb-3 text-lg font-semibold text-white">
        {t('home.sessions')}
      </h2>
      {sessions.length === 0 ? (
        <p className="card text-sm text-gray-400" data-testid="no-sessions">
          {t('home.noSessions')}
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
          {sessions.map((session) => (
            <SessionCard key={`${session.ServerId}/${session.Id}`} session={session} geolocationEnabled={false} now={now} forViewer />
          ))}
        </div>
      )}
    </section>
  );
}
