// Every type formats the same event for its service and is delivered to a real receiver: HTTP servers on
// loopback for ntfy, Gotify, Slack and Telegram shapes, a real SMTP server (smtp-server) for email.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueWebhookEvents, type WebhookEvent } from './webhook-events.js';
import { createWebhookTestEnv, type WebhookTestEnv } from './test-support/webhook-test-env.js';
import { eventually, TestReceiver } from './test-support/test-receiver.js';

const server = { id: '00000000-0000-4000-8000-000000000002', name: 'Den <Emby>' };
const added: WebhookEvent & { event: 'media_recently_added' } = {
  event: 'media_recently_added',
  server,
  occurred_at: '2026-11-21T10:00:00.000Z',
  data: {
    total: 3,
    movies: [{ id: 'm1', name: 'Amélie', type: 'Movie', year: 2001 }],
    series: [
      {
        id: 's1',
        name: 'Andor',
        episodes: [
          { id: 'e1', name: 'One', season_number: 2, episode_number: 1 },
          { id: 'e2', name: 'Two', season_number: 2, episode_number: 2 },
        ],
      },
    ],
    other: [],
  },
};
const lines = ['🎬 Amélie (2001)', '📺 Andor: 2 new episodes (S02E01, S02E02)'];

interface Mail {
  from: string;
  to: string[];
  data: string;
  user: string | undefined;
}

describe('notification types', () => {
  let env: WebhookTestEnv;
  let receiver: TestReceiver;
  let smtp: SMTPServer;
  let smtpPort: number;
  const mails: Mail[] = [];
  let smtpFailures = 0;

  beforeAll(async () => {
    env = await createWebhookTestEnv();
    receiver = await new TestReceiver().start();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'reelstat' && auth.password === 'mail-password') callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          if (smtpFailures > 0) {
            smtpFailures--;
            return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          }
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    env.startDispatcher();
  });
  afterAll(async () => {
    await env.close();
    await receiver.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    await env.db.query('DELETE FROM webhooks');
  });

  async function deliverTo(body: Parameters<WebhookTestEnv['service']['create']>[0]) {
    const webhook = await env.service.create({ trigger_type: 'event', event_type: 'media_recently_added', name: 'hook', ...body });
    await enqueueWebhookEvents(env.db, undefined, [added]);
    return eventually(async () => {
      const [row] = await env.db.query<{ status: string; attempts: number; last_error: string | null }>(
        'SELECT status, attempts, last_error FROM webhook_deliveries WHERE webhook_id = $1',
        [webhook.id],
      );
      return row?.status === 'delivered' || row?.status === 'dead' ? row : undefined;
    });
  }

  it('ntfy: JSON publish to the server root with topic, title, message, tags and the access token', async () => {
    const row = await deliverTo({ url: receiver.url('/reelstat-news'), webhook_type: 'ntfy', secret: 'tk_access' });
    expect(row.status).toBe('delivered');
    const [request] = receiver.requests;
    expect(request!.path).toBe('/');
    expect(request!.headers.authorization).toBe('Bearer tk_access');
    expect(request!.json()).toEqual({
      topic: 'reelstat-news',
      title: '3 new items added on Den <Emby>',
      message: ['Recently added on Den <Emby>', '', ...lines].join('\n'),
      tags: ['white_check_mark'],
      priority: 3,
    });
  });

  it('Gotify: POST /message with the app token header and a priority', async () => {
    await deliverTo({ url: receiver.url('/gotify'), webhook_type: 'gotify', secret: 'AppToken.1', options: { priority: 7 } });
    const [request] = receiver.requests;
    expect(request!.path).toBe('/gotify/message');
    expect(request!.headers['x-gotify-key']).toBe('AppToken.1');
    expect(request!.json()).toMatchObject({
      title: '3 new items added on Den <Emby>',
      priority: 7,
      message: expect.stringContaining(lines[1]!),
    });
  });

  it('Slack: text fallback plus blocks, with mrkdwn escaped', async () => {
    await deliverTo({ url: receiver.url('/services/T000/B000/XXX'), webhook_type: 'slack' });
    const body = receiver.requests[0]!.json() as { text: string; blocks: Array<{ type: string; text?: { text: string } }> };
    expect(body.text).toBe('3 new items added on Den <Emby>: Recently added on Den <Emby>');
    expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section']);
    expect(body.blocks[1]!.text!.text).toBe('Recently added on Den &lt;Emby&gt;');
    expect(body.blocks[2]!.text!.text).toBe(lines.join('\n'));
  });

  it('Telegram: sendMessage on the bot path, HTML escaped, to the chat id', async () => {
    await deliverTo({
      url: `http://127.0.0.1:${receiver.port}`,
      webhook_type: 'telegram',
      secret: '123456:ABC',
      options: { chat_id: '-1001' },
    });
    const [request] = receiver.requests;
    expect(request!.path).toBe('/bot123456:ABC/sendMessage');
    const body = request!.json() as { chat_id: string; text: string; parse_mode: string };
    expect(body).toMatchObject({ chat_id: '-1001', parse_mode: 'HTML' });
    expect(body.text.split('\n')[0]).toBe('<b>3 new items added on Den &lt;Emby&gt;</b>');
  });

  it('email: sent over SMTP with login, retried after a 4xx answer', async () => {
    smtpFailures = 1;
    const row = await deliverTo({
      url: `smtp://127.0.0.1:${smtpPort}`,
      webhook_type: 'email',
      secret: 'mail-password',
      options: { from: 'reelstat@example.org', to: 'admin@example.org', security: 'none', username: 'reelstat' },
    });
    expect(row).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ from: 'reelstat@example.org', to: ['admin@example.org'], user: 'reelstat' });
    expect(mail!.data).toContain('Subject: [Reelstat] 3 new items added on Den <Emby>');
    expect(mail!.data).toContain('Content-Type: text/html');
    const stored = JSON.stringify(await env.db.query('SELECT * FROM webhooks'));
    expect(stored).not.toContain('mail-password');
  });

  it('email: a wrong password is final (SMTP 5xx), not retried', async () => {
    const row = await deliverTo({
      url: `smtp://127.0.0.1:${smtpPort}`,
      webhook_type: 'email',
      secret: 'wrong',
      options: { from: 'reelstat@example.org', to: 'admin@example.org', security: 'none', username: 'reelstat' },
    });
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row.last_error).toMatch(/Invalid username or password/);
  });
});
