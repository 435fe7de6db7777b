// A play on the simulator fires playback_started and playback_ended webhooks with the play's real fields,
// queued in the activity monitor's own transaction and delivered by a dispatcher to a loopback receiver.
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { movieLongerThan, startActivityHarness, viewer, type ActivityHarness } from '../activity/test-support/activity-test-harness.js';
import { SecretBox } from '../security/secret-box.js';
import { testLogger } from '../test-support/test-services.js';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { countDeadDeliveries } from './delivery-repository.js';
import { fastDelivery } from './test-support/webhook-test-env.js';
import { TestReceiver } from './test-support/test-receiver.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookService } from './webhook-service.js';

describe('playback webhooks from the activity monitor', () => {
  let h: ActivityHarness;
  let receiver: TestReceiver;
  let service: WebhookService;
  const box = new SecretBox('playback-webhooks-secret-playback-webhooks');
  beforeEach(async () => {
    h = await startActivityHarness('jellyfin', { mergeWindowMinutes: 10 });
    receiver = await new TestReceiver().start();
    service = new WebhookService(h.db, box, 'UTC');
  });
  afterEach(async () => {
    await receiver.stop();
    await h.close();
  });

  const hook = (event: 'playback_started' | 'playback_ended', filters = {}) =>
    service.create({
      name: event,
      url: receiver.url(`/${event}`),
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: event,
      filters,
    });

  it('one play resumed within the merge window: one started, an ended when the row is written and one when it is extended', async () => {
    await hook('playback_started');
    await hook('playback_ended');
    await hook('playback_ended', { play_methods: ['DirectPlay'] }); // this play transcodes: filtered out
    const userId = viewer(h.sim);
    const itemId = movieLongerThan(h.sim, 30);
    const play = h.sim.control.startPlay({ userId, itemId, method: 'Transcode', client: 'jellyfin-web' });
    await h.run(40_000);
    h.sim.control.stop(play.playId);
    await h.run(60_000);
    // The same user resumes the same movie within the merge window: the same play goes on, no new "started".
    const resumed = h.sim.control.startPlay({
      userId,
      itemId,
      method: 'Transcode',
      client: 'jellyfin-web',
      startPositionTicks: h.sim.control.play(play.playId)!.endPositionTicks!,
    });
    await h.run(30_000);
    h.sim.control.stop(resumed.playId);
    await h.run(11 * 60_000, 60_000);

    const [row] = await h.history();
    expect(row).toBeDefined();
    const outbox = await h.db.query<{ event_type: string; payload: { data: Record<string, unknown> } }>(
      `SELECT event_type, payload FROM webhook_deliveries ORDER BY id`,
    );
    // The row is written when the play stops and extended when the resumed play stops again: each write is announced.
    expect(outbox.map((d) => d.event_type)).toEqual(['playback_started', 'playback_ended', 'playback_ended']);
    expect(outbox[1]!.payload.data.played_seconds).toBe(40);

    const dispatcher = new DeliveryDispatcher({
      db: h.db,
      secretBox: box,
      logger: testLogger,
      metrics: new WebhookMetrics(new Registry(), () => countDeadDeliveries(h.db)),
      settings: fastDelivery,
    });
    dispatcher.start();
    try {
      const requests = await receiver.waitFor(3);
      const byPath = Object.fromEntries(
        requests.map((r) => [r.path, r.json() as { event: string; server: unknown; data: Record<string, unknown> }]),
      );
      const item = h.sim.control.item(itemId)!;
      const expectedItem = {
        id: itemId,
        name: row!.item_name,
        type: 'Movie',
        series_name: null,
        season_number: null,
        episode_number: null,
      };
      expect(byPath['/playback_started']).toMatchObject({
        event: 'playback_started',
        server: { id: h.serverId, name: 'sim' },
        data: {
          user: { id: userId, name: row!.user_name },
          item: expectedItem,
          library_id: item.libraryId,
          play_method: 'Transcode',
          client: row!.client,
        },
      });
      expect(byPath['/playback_started']!.data.played_seconds).toBeUndefined();
      // The extension's playback_ended carries the figures of the whole play (deliveries may arrive in any order).
      const ended = requests
        .map((r) => r.json() as { event: string; data: { played_seconds?: number } })
        .filter((body) => body.event === 'playback_ended')
        .map((body) => body.data.played_seconds);
      expect(ended.sort()).toEqual([40, row!.played_seconds].sort());
      expect(
        requests
          .map((r) => r.json() as { data: { played_seconds?: number } })
          .find((body) => body.data.played_seconds === row!.played_seconds),
      ).toMatchObject({
        event: 'playback_ended',
        data: {
          play_key: row!.play_key,
          user: { id: userId },
          item: expectedItem,
          played_seconds: row!.played_seconds,
          paused_seconds: row!.paused_seconds,
          started_at: row!.started_at.toISOString(),
          ended_at: row!.ended_at!.toISOString(),
        },
      });
      expect(row!.played_seconds).toBe(70);
    } finally {
      await dispatcher.stop();
    }
  });

  it('untracked users fire nothing', async () => {
    await hook('playback_started');
    await hook('playback_ended');
    const userId = viewer(h.sim, 1);
    await h.db.query(
      `INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, $2, 'x', false)
      ON CONFLICT (server_id, id) DO UPDATE SET tracked = false`,
      [h.serverId, userId],
    );
    const play = h.sim.control.startPlay({ userId, itemId: movieLongerThan(h.sim, 30) });
    await h.run(40_000);
    h.sim.control.stop(play.playId);
    await h.run(11 * 60_000, 60_000);
    expect(await h.db.query(`SELECT id FROM webhook_deliveries`)).toEqual([]);
  });
});
