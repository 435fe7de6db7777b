import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { publishUiEvent } from '@reelstat/core';
import { waitUntil } from '@reelstat/core/test-support/test-services.js';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe('socket gateway', () => {
  let harness: ApiHarness;
  let token: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
  });
  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    await harness.stop();
  });

  async function connect(received: Array<[string, unknown]>) {
    const socket = connectSocket(`http://127.0.0.1:${harness.app.port}`, {
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token },
    });
    sockets.push(socket);
    socket.onAny((event: string, payload: unknown) => received.push([event, payload]));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  it('relays bus events to browsers and replays the current sessions to a browser that connects later', async () => {
    const early: Array<[string, unknown]> = [];
    await connect(early);
    const sessions = [{ Id: 'a1', UserName: 'Alice', NowPlayingItem: { Id: 'm1', Name: 'Heat' } }];
    await publishUiEvent(harness.app.runtime.bus, 'sessions', sessions);
    await publishUiEvent(harness.app.runtime.bus, 'FullSyncTask', { type: 'Start', message: 'Full sync started' });
    await waitUntil(() => early.length === 2);
    expect(early).toEqual([
      ['sessions', sessions],
      ['FullSyncTask', { type: 'Start', message: 'Full sync started' }],
    ]);

    const late: Array<[string, unknown]> = [];
    await connect(late);
    await waitUntil(() => late.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // State is replayed; one-off notifications are not.
    expect(late).toEqual([['sessions', sessions]]);
  });
});
