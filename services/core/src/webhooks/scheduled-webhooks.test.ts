// Scheduled webhooks and the monthly report on a chosen clock, in the server's time zone (Europe/Paris).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPlays } from '../history/record-plays.js';
import { testLogger } from '../test-support/test-services.js';
import { formatDiscord } from './formatters/discord.js';
import { runScheduledWebhooks } from './scheduled-webhooks.js';
import { createWebhookTestEnv, type WebhookTestEnv } from './test-support/webhook-test-env.js';
import type { MonthlyReportData, WebhookEvent } from './webhook-events.js';
import { WebhookService } from './webhook-service.js';

const SERVER = '00000000-0000-4000-8000-0000000000aa';
const TZ = 'Europe/Paris';

describe('scheduled webhooks and the monthly report', () => {
  let env: WebhookTestEnv;
  const clock = new Date('2026-11-03T12:00:00Z');
  beforeAll(async () => {
    env = await createWebhookTestEnv(TZ, () => clock);
    await env.db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'sim', 'jellyfin', 'http://x', 'v1.x')`,
      [SERVER],
    );
    const play = (key: string, user: string, item: string, startedAt: string, seconds: number, series: string | null = null) => ({
      serverId: SERVER,
      playKey: key,
      source: 'monitor' as const,
      userId: user,
      userName: `User ${user}`,
      itemId: item,
      itemName: `Item ${item}`,
      seriesName: series,
      playMethod: 'DirectPlay' as const,
      startedAt: new Date(startedAt),
      playedSeconds: seconds,
    });
    await recordPlays(env.db, [
      // 1 October 01:00 in Paris: in October there, still September in UTC.
      play('p1', 'a', 'm1', '2026-09-30T23:00:00Z', 3600),
      play('p2', 'a', 'e1', '2026-10-10T20:00:00Z', 1500, 'Andor'),
      play('p3', 'b', 'e2', '2026-10-11T20:00:00Z', 1500, 'Andor'),
      // 1 November 08:30 in Paris: after the month, before the 09:00 run.
      play('p4', 'b', 'm2', '2026-11-01T07:30:00Z', 600),
    ]);
  });
  afterAll(async () => {
    await env.close();
  });

  const reports = async () =>
    (
      await env.db.query<{ webhook_id: number; payload: WebhookEvent & { data: MonthlyReportData } }>(
        `SELECT webhook_id, payload FROM webhook_deliveries WHERE event_type = 'monthly_report' ORDER BY id`,
      )
    ).map((r) => r.payload);

  it('trigger-monthly reports the past calendar month of the server time zone', async () => {
    const webhook = await env.service.create({ name: 'report', url: 'http://127.0.0.1:9/r', webhook_type: 'discord' });
    const answer = await env.service.triggerMonthly(webhook.id);
    expect(answer.message).toBe('Monthly report of October 2026 queued for webhook report');
    const [report] = await reports();
    expect(report!.data).toEqual({
      period: { from: '2026-09-30T22:00:00.000Z', to: '2026-10-31T23:00:00.000Z', label: 'October 2026', time_zone: TZ },
      plays: 3,
      watch_seconds: 6600,
      active_users: 2,
      top_items: [
        { name: 'Andor', plays: 2, watch_seconds: 3000 },
        { name: 'Item m1', plays: 1, watch_seconds: 3600 },
      ],
      top_users: [
        { name: 'User a', plays: 2, watch_seconds: 5100 },
        { name: 'User b', plays: 1, watch_seconds: 1500 },
      ],
    });
    const message = formatDiscord(report!, {
      webhook: { id: 1, url: 'http://x', method: 'POST', options: {}, webhook_type: 'discord' },
      secret: null,
      idempotencyKey: 'k',
      now: clock,
    });
    const embed = (JSON.parse((message as { body: string }).body) as { embeds: Array<{ title: string; description: string }> }).embeds[0]!;
    expect(embed.title).toBe('Monthly report: October 2026');
    expect(embed.description.split('\n').slice(0, 4)).toEqual([
      '3 plays, 1 h 50 min watched by 2 users (Europe/Paris)',
      '',
      'Top items:',
      '1. Andor: 2 plays, 50 min 00 s',
    ]);
    await env.db.query('DELETE FROM webhooks');
  });

  it('a scheduled webhook fires once when its cron time passes, with the period since its previous run', async () => {
    const webhook = await env.service.create({ name: 'monthly', url: 'http://127.0.0.1:9/m', webhook_type: 'generic' });
    expect(webhook.schedule).toBe('0 9 1 * *');
    // The schedule's cursor as if the webhook was saved mid-October.
    await env.db.query(`UPDATE webhooks SET last_triggered_at = '2026-10-15T10:00:00Z' WHERE id = $1`, [webhook.id]);
    const service = new WebhookService(env.db, env.secretBox, TZ, () => clock);
    expect((await service.list())[0]!.next_runs[0]).toBe('2026-12-01T08:00:00.000Z');

    expect(await runScheduledWebhooks(env.db, TZ, new Date('2026-11-01T07:59:00Z'), testLogger)).toBe(0);
    expect(await runScheduledWebhooks(env.db, TZ, new Date('2026-11-01T08:00:30Z'), testLogger)).toBe(1);
    expect(await runScheduledWebhooks(env.db, TZ, new Date('2026-11-01T08:01:00Z'), testLogger)).toBe(0);
    const [report] = await reports();
    // From 1 October 09:00 to 1 November 09:00, Paris time (summer time ended in between).
    expect(report!.data.period).toEqual({
      from: '2026-10-01T07:00:00.000Z',
      to: '2026-11-01T08:00:00.000Z',
      label: '1 Oct 2026 – 1 Nov 2026',
      time_zone: TZ,
    });
    expect(report!.data.plays).toBe(3);
    expect(report!.data.watch_seconds).toBe(1500 + 1500 + 600);
    // A disabled one does not fire.
    await env.service.update(webhook.id, { enabled: false });
    expect(await runScheduledWebhooks(env.db, TZ, new Date('2026-12-01T08:00:30Z'), testLogger)).toBe(0);
  });
});
