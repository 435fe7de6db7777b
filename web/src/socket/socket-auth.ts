import type { Socket } from 'socket.io-client';
import { onTokenRenewed, renewTokenIfDue } from '../api/token-renewal';

/** Must match the server's RENEW_TOKEN_EVENT (services/api/src/socket/socket-gateway.ts). */
export const RENEW_TOKEN_EVENT = 'renew-token';

/**
 * The server cuts a socket when the login token it connected with expires. So that an open dashboard never
 * notices: each renewed token is sent on the socket (the server moves the cut-off to its expiry), and if the
 * server cuts the socket anyway (a renewal that did not reach it, a restart) it reconnects with the stored token,
 * renewed first when due. Returns the cleanup.
 */
export function keepSocketAuthenticated(socket: Pick<Socket, 'on' | 'off' | 'emit' | 'connect'>): () => void {
  const stopListening = onTokenRenewed((token) => {
    socket.emit(RENEW_TOKEN_EVENT, token);
  });
  const onDisconnect = (reason: string) => {
    // Only a cut by the server stops socket.io's own reconnection; network losses reconnect by themselves.
    if (reason !== 'io server disconnect') return;
    void renewTokenIfDue().then(() => socket.connect());
  };
  socket.on('disconnect', onDisconnect);
  return () => {
    stopListening();
    socket.off('disconnect', onDisconnect);
  };
}
