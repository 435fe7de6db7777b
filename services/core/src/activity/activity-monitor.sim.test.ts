// The leader loop (startActivityMonitor) on a real Runtime: one monitor per linked media server (a Jellyfin and
// an Emby simulator on the real clock), one combined `sessions` event, each play recorded once under its server.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { Runtime } from '../runtime/runtime.js';
import { SecretBox } from '../security/secret-box.js';
import { UI_EVENTS_CHANNEL, type UiEvent } from '../bus/ui-events.js';
import type { LiveSession } from '@reelstat/contract';
import { createTestDatabase, testConfig, testLogger, type TestDatabase } from '../test-support/test-services.js';
import { waitFor } from '../test-support/test-kit.js';
import { startActivityMonitor } from './activity-monitor.js';

describe('startActivityMonitor', () => {
  let database: TestDatabase;
  let runtime: Runtime;
  const sims: RunningSimulator[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = new Runtime(testConfig({ DATABASE_URL: database.url, ENCRYPTION_KEY: 'e'.repeat(40) }), testLogger);
    await runtime.connect();
    await runtime.migrate();
  });
  afterAll(async () => {
    await runtime.close();
    await database.drop();
    for (const sim of sims) await sim.stop();
  });

  it('watches every linked server and pushes their sessions together', { timeout: 60_000 }, async () => {
    const secrets = new SecretBox(runtime.config.encryptionKey);
    const servers: Array<{ id: string; sim: RunningSimulator; kind: 'jellyfin' | 'emby' }> = [];
    for (const kind of ['jellyfin', 'emby'] as const) {
      const sim = await startSimulator({ flavor: kind, clock: 'real', scale: 'tiny', seed: kind === 'jellyfin' ? 41 : 42 });
      sims.push(sim);
      const id = randomUUID();
      await runtime.db.query(
        `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, `${kind}-sim`, kind, sim.url, secrets.seal(sim.apiKey), kind === 'jellyfin'],
      );
      servers.push({ id, sim, kind });
    }
    await runtime.services.settings.set('ACTIVITY_MONITOR_INTERVALS', { activeSessionsInterval: 500, idleInterval: 1000 });
    await runtime.services.settings.set('ACTIVITY_RECORDING_RULES', { minimumPlaySeconds: 1, mergeWindowMinutes: 0 });
    const events: LiveSession[][] = [];
    await runtime.bus.subscribe<UiEvent>(UI_EVENTS_CHANNEL, (message) => {
      if (message.event === 'sessions') events.push(message.payload as LiveSession[]);
    });

    const stop = await startActivityMonitor(runtime);
    try {
      const plays = servers.map(({ sim }) => {
        const userId = sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!.id;
        return sim.control.startPlay({ userId, itemId: sim.control.itemIds('Movie')[0]! });
      });
      const both = await waitFor('one sessions event with the plays of both servers', () => events.find((payload) => payload.length === 2));
      expect(both.map((s) => s.ServerId).sort()).toEqual(servers.map((s) => s.id).sort());
      expect(both.map((s) => s.Id)).toEqual([...both.map((s) => s.Id)].sort());

      // Each play runs a few polls' worth (real clock) before it stops.
      await waitFor('2.5 s of play on both servers', () =>
        servers.every(({ sim }, i) => sim.control.play(plays[i]!.playId)!.secondsUnpaused >= 2.5),
      );
      servers.forEach(({ sim }, i) => sim.control.stop(plays[i]!.playId));
      const rows = await waitFor('a history row per server', async () => {
        const found = await runtime.db.query<{ server_id: string; item_id: string; played_seconds: number }>(
          'SELECT server_id, item_id, played_seconds FROM playback_history ORDER BY server_id',
        );
        return found.length === 2 && found;
      });
      for (const { id, sim } of servers) {
        const play = plays[servers.findIndex((s) => s.id === id)]!;
        const row = rows.find((r) => r.server_id === id)!;
        expect(row.item_id).toBe(play.itemId);
        expect(Math.abs(row.played_seconds - sim.control.play(play.playId)!.secondsUnpaused)).toBeLessThanOrEqual(1);
      }
      await waitFor('the empty sessions event', () => events.at(-1)?.length === 0);
    } finally {
      await stop();
    }
  });
});
