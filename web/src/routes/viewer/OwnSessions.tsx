import { useState } from 'react';
import type { Session } from '../../api/types';
import { useSocketEvent } from '../../socket/socket';
import { SessionCard } from '../home/SessionCard';
import { SessionsPanel, useSecondClock } from '../home/Sessions';
import { visibleSessions } from '../home/sessions-store';

/**
 * A viewer's own live sessions. The server sends a viewer's socket only the sessions of their own media-server
 * user (services/api/src/socket/viewer-events.ts), so everything received is shown.
 */
export function OwnSessions() {
  const [sessions, setSessions] = useState<Session[]>([]);
  const now = useSecondClock();
  useSocketEvent<Session[]>('sessions', (payload) => setSessions(Array.isArray(payload) ? visibleSessions(payload) : []));
  return (
    <SessionsPanel
      titleId="own-sessions-title"
      sessions={sessions}
      card={(session) => (
        <SessionCard key={`${session.ServerId}/${session.Id}`} session={session} geolocationEnabled={false} now={now} forViewer />
      )}
    />
  );
}
