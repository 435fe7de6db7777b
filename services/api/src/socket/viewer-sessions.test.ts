// A viewer's socket: two media-server users play at once; the viewer receives their own live session and never
// the other's (nor its IP or device), history events only about themselves, and nothing administrators-only.
// An administrator's socket still receives everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { LiveSession } from '@reelstat/contract';
import { publishUiEvent, startActivityMonitor } from '@reelstat/core';
import { waitFor } from '@reelstat/core/test-support/test-kit.js';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { createAdmin, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

type Received = Array<[string, unknown]>;
const bare = (id: string) => id.replace(/-/g, '').toLowerCase();

describe('live sessions of a viewer on socket.io', () => {
  let sim: RunningSimulator;
  let harness: ApiHarness;
  let adminToken: string;
  let viewerToken: string;
  let serverId: string;
  let stopMonitor: (() => Promise<void>) | undefined;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 23 });
    harness = await startApiHarness();
    adminToken = await createAdmin(harness);
    const linked = await harness.call('POST', '/auth/configSetup', {
      token: adminToken,
      body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    serverId = ((await harness.call('GET', '/api/mediaServers', { token: adminToken })).body as Array<{ Id: string }>)[0]!.Id;
    sim.control.addUser({ name: 'Vera', password: 'vera-pass', isAdministrator: false });
    const signedIn = await harness.call('POST', '/auth/mediaServerLogin', { body: { username: 'Vera', password: 'vera-pass' } });
    expect(signedIn.body).toMatchObject({ role: 'viewer' });
    viewerToken = (signedIn.body as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    await stopMonitor?.();
    await harness?.stop();
    await sim?.stop();
  });

  async function connect(token: string): Promise<Received> {
    const received: Received = [];
    const socket = connectSocket(`http://127.0.0.1:${harness.app.port}`, {
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
    });
    sockets.push(socket);
    socket.onAny((event: string, payload: unknown) => received.push([event, payload]));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return received;
  }

  const sessionsOf = (received: Received) =>
    received.filter(([event]) => event === 'sessions').map(([, payload]) => payload as LiveSession[]);

  // First, while nothing plays: the activity monitor, started in the next test, writes history events of its own.
  it('sends a viewer history events about themselves only, without ids of others, and no task events', async () => {
    const bus = harness.app.runtime.bus;
    const vera = bare(sim.control.users().find((u) => u.name === 'Vera')!.id);
    const admin = await connect(adminToken);
    const viewer = await connect(viewerToken);
    await publishUiEvent(bus, 'task-list', [{ name: 'FullSyncTask', state: 'idle' }]);
    await publishUiEvent(bus, 'FullSyncTask', { type: 'Start', message: 'Full sync started' });
    await publishUiEvent(bus, 'backup-restore', { step: 'tables' });
    await publishUiEvent(bus, 'history', { serverId, userIds: ['someone-else'], libraryIds: ['shows'], itemIds: ['e1'] });
    await publishUiEvent(bus, 'history', { serverId: 'another-server', userIds: [vera], libraryIds: [], itemIds: [] });
    await publishUiEvent(bus, 'history', { serverId, userIds: [vera, 'someone-else'], libraryIds: ['movies'], itemIds: ['m1', 'm2'] });
    await publishUiEvent(bus, 'marker', null);

    // Events reach each socket in the order published: once the administrator has the marker and the viewer the
    // last history event, nothing published before can still arrive.
    await waitFor('the administrator got the marker', () => admin.some(([event]) => event === 'marker'));
    await waitFor('the viewer got their history event', () =>
      viewer.some(([event, payload]) => event === 'history' && (payload as { libraryIds: string[] }).libraryIds.length === 0),
    );
    expect(admin.filter(([event]) => event !== 'sessions').map(([event]) => event)).toEqual([
      'task-list',
      'FullSyncTask',
      'backup-restore',
      'history',
      'history',
      'history',
      'marker',
    ]);
    expect(viewer.filter(([event]) => event !== 'sessions')).toEqual([
      ['history', { serverId, userIds: [vera], libraryIds: [], itemIds: [] }],
    ]);
  });

  it('sends a viewer only their own session while another user plays, and an administrator both', { timeout: 90_000 }, async () => {
    const runtime = harness.app.runtime;
    await runtime.services.settings.set('ACTIVITY_MONITOR_INTERVALS', { activeSessionsInterval: 500, idleInterval: 1000 });
    const admin = await connect(adminToken);
    const viewer = await connect(viewerToken);

    const vera = sim.control.users().find((u) => u.name === 'Vera')!;
    const other = sim.control.users().find((u) => u.id !== vera.id && !u.isAdministrator && !u.isDisabled)!;
    const [first, second] = sim.control.itemIds('Movie', 2);
    const own = sim.control.startPlay({ userId: vera.id, itemId: first! });
    const foreign = sim.control.startPlay({ userId: other.id, itemId: second!, client: 'android-tv' });
    stopMonitor = await startActivityMonitor(runtime);

    // The administrator has seen both plays in one event: every event published until then reached the viewer too.
    const both = await waitFor('the administrator sees both sessions', () => sessionsOf(admin).find((sessions) => sessions.length === 2));
    expect(both.map((s) => s.Id).sort()).toEqual([own.sessionId, foreign.sessionId].sort());
    const foreignSession = both.find((s) => s.Id === foreign.sessionId)!;
    await waitFor('the viewer sees their session', () => sessionsOf(viewer).some((sessions) => sessions.length === 1));

    const viewerSessions = sessionsOf(viewer).flat();
    expect(viewerSessions.length).toBeGreaterThan(0);
    for (const session of viewerSessions) {
      expect(session.Id).toBe(own.sessionId);
      expect(bare(session.UserId!)).toBe(bare(vera.id));
      expect(session.ServerId).toBe(serverId);
    }
    // Nothing of the other play, in any event the viewer received.
    const everything = JSON.stringify(viewer);
    for (const secret of [foreign.sessionId, foreignSession.UserId!, other.name, foreignSession.DeviceName, foreignSession.RemoteEndPoint])
      if (secret) expect(everything).not.toContain(secret);

    // A viewer connecting now gets the replayed state filtered the same way.
    const late = await connect(viewerToken);
    await waitFor('the late viewer gets the replayed sessions', () => sessionsOf(late).length > 0);
    expect(sessionsOf(late)[0]!.map((s) => s.Id)).toEqual([own.sessionId]);
  });
});
