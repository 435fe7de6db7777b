import { useEffect, useState } from 'react';
import { apiBase } from './api-base';

type Status = { kind: 'loading' } | { kind: 'ready'; state: number; version: string } | { kind: 'unreachable' };

const STATE_TEXT: Record<number, string> = {
  0: 'Not configured yet: the setup screens arrive with the dashboard.',
  1: 'An administrator exists; the media server is not linked yet.',
  2: 'Ready.',
};

/** The first screen: shows the setup state from the server. The full dashboard replaces it. */
export function App() {
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  useEffect(() => {
    fetch(`${apiBase}/auth/isConfigured`)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((body: { state: number; version: string }) => setStatus({ kind: 'ready', ...body }))
      .catch(() => setStatus({ kind: 'unreachable' }));
  }, []);
  return (
    <main className="shell">
      <h1>Reelstat</h1>
      {status.kind === 'loading' && <p>Loading…</p>}
      {status.kind === 'unreachable' && <p role="alert">Error: Unable to connect to Reelstat Backend</p>}
      {status.kind === 'ready' && (
        <>
          <p>{STATE_TEXT[status.state] ?? `State ${status.state}`}</p>
          <p className="muted">Version {status.version}</p>
        </>
      )}
    </main>
  );
}
