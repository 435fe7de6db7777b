import { api } from './client';

/** Ends a live session on its media server, showing the viewer `message` first (when given). */
export const endSession = (session: { Id: string; ServerId?: string | null }, message: string) =>
  api<{ message: string }>('/api/endSession', {
    method: 'POST',
    body: { sessionId: session.Id, ...(message.trim() ? { message: message.trim() } : {}) },
    ...(session.ServerId ? { query: { serverId: session.ServerId } } : {}),
  });
