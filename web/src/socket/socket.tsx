import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { apiBase } from '../api/api-base';
import { getStoredToken } from '../store/preferences';
import { keepSocketAuthenticated } from './socket-auth';

const SocketContext = createContext<Socket | null>(null);

/**
 * One socket.io connection for the whole app, authenticated with the stored token in the handshake and kept
 * authenticated as the token is renewed (socket-auth.ts).
 */
export function SocketProvider({ children }: { children: ReactNode }) {
  const [socket, setSocket] = useState<Socket | null>(null);
  useEffect(() => {
    const connection = io(window.location.origin, {
      path: `${apiBase}/socket.io/`,
      // Read at every (re)connection: the stored token is renewed while the dashboard is open.
      auth: (send) => {
        const token = getStoredToken();
        send(token ? { token } : {});
      },
      transports: ['websocket', 'polling'],
    });
    const stopAuth = keepSocketAuthenticated(connection);
    setSocket(connection);
    return () => {
      stopAuth();
      connection.disconnect();
    };
  }, []);
  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

/** Calls the latest handler for each `event` pushed by the server. */
export function useSocketEvent<T>(event: string, handler: (payload: T) => void): void {
  const socket = useContext(SocketContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: T) => latest.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}

export function useSocket(): Socket | null {
  return useContext(SocketContext);
}
