// One contract for every sender: what the dispatcher relies on (a success, a temporary refusal worth a retry, a
// final refusal, a receiver that never answers, nobody listening, a link-local target) holds for HttpNotifier
// against a real HTTP receiver and for SmtpNotifier against a real SMTP server: plain, STARTTLS and implicit
// TLS, the last two with a self-signed certificate made for the test run (openssl).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingMessage } from './formatters/index.js';
import { HttpNotifier } from './http-notifier.js';
import type { Notifier, SendOptions } from './notifier.js';
import { SmtpNotifier } from './smtp-notifier.js';
import { TestReceiver } from './test-support/test-receiver.js';

type Behaviour = 'accept' | 'temporary' | 'permanent' | 'hang';

/** A fresh self-signed certificate for localhost (what a homelab mail server often has). */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelstat-smtp-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const certificate = selfSignedCertificate();

/** A sender with a real receiver whose next answers the test chooses. */
interface ContractFixture {
  notifier: Notifier;
  start(): Promise<void>;
  stop(): Promise<void>;
  behave(behaviour: Behaviour): void;
  /** Messages the receiver accepted. */
  accepted(): number;
  /** A message and its options for the receiver at this URL (or the fixture's own). */
  send(url?: string): { message: OutgoingMessage; options: SendOptions };
  /** A URL of this kind for host:port. */
  urlFor(hostPort: string): string;
}

const timeoutMs = 1_500;
const baseOptions = { timeoutMs, allowLinkLocal: false, maxResponseBytes: 1024 };

function httpFixture(): ContractFixture {
  const receiver = new TestReceiver();
  let behaviour: Behaviour = 'accept';
  let accepted = 0;
  receiver.answerWith(() => {
    if (behaviour === 'accept') accepted++;
    return behaviour === 'accept'
      ? { status: 204 }
      : behaviour === 'temporary'
        ? { status: 503, body: 'busy' }
        : behaviour === 'permanent'
          ? { status: 404, body: 'no such hook' }
          : 'hang';
  });
  const fixture: ContractFixture = {
    notifier: new HttpNotifier(),
    start: async () => void (await receiver.start()),
    stop: async () => {
      fixture.notifier.close?.();
      await receiver.stop();
    },
    behave: (next) => (behaviour = next),
    accepted: () => accepted,
    urlFor: (hostPort) => `http://${hostPort}/hook`,
    send: (url = receiver.url()) => ({
      message: { kind: 'http', method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"event":"test"}' },
      options: baseOptions,
    }),
  };
  return fixture;
}

function smtpFixture(security: 'none' | 'starttls' | 'tls'): ContractFixture {
  let behaviour: Behaviour = 'accept';
  let accepted = 0;
  const options: SMTPServerOptions = {
    authOptional: true,
    // A hanging session must not hold the server's close for its default 30 s.
    closeTimeout: 100,
    secure: security === 'tls',
    ...certificate,
    disabledCommands: security === 'none' ? ['STARTTLS'] : [],
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        if (behaviour === 'hang') return;
        if (behaviour === 'temporary') return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        if (behaviour === 'permanent') return callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
        // A TLS flavour must have encrypted the session before the message was sent.
        if (security !== 'none' && !session.secure) return callback(Object.assign(new Error('plain text'), { responseCode: 530 }));
        accepted++;
        callback();
      });
    },
  };
  const server = new SMTPServer(options);
  const scheme = security === 'tls' ? 'smtps' : 'smtp';
  return {
    notifier: new SmtpNotifier(),
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    behave: (next) => (behaviour = next),
    accepted: () => accepted,
    urlFor: (hostPort) => `${scheme}://${hostPort}`,
    send(url = `${scheme}://127.0.0.1:${(server.server.address() as AddressInfo).port}`) {
      return {
        message: { kind: 'email', subject: '[Reelstat] test', text: 'test', html: '<p>test</p>' },
        options: {
          ...baseOptions,
          target: { url, options: { from: 'reelstat@example.org', to: 'admin@example.org', security, tls_verify: false } },
        },
      };
    },
  };
}

/** A port nobody listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const fixtures: Array<[string, () => ContractFixture]> = [
  ['HTTP', httpFixture],
  ['SMTP, plain', () => smtpFixture('none')],
  ['SMTP, STARTTLS with a self-signed certificate', () => smtpFixture('starttls')],
  ['SMTP, implicit TLS with a self-signed certificate', () => smtpFixture('tls')],
];

describe.each(fixtures)('notifier contract: %s', (_name, make) => {
  const fixture = make();
  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('an accepted message is ok, with the receiver’s success code', async () => {
    fixture.behave('accept');
    const before = fixture.accepted();
    const { message, options } = fixture.send();
    const result = await fixture.notifier.send(message, options);
    expect(result).toMatchObject({ ok: true, error: null, retryable: false });
    expect([204, 250]).toContain(result.statusCode);
    expect(fixture.accepted()).toBe(before + 1);
  });

  it('a temporary refusal is a failure worth retrying, with its code', async () => {
    fixture.behave('temporary');
    const { message, options } = fixture.send();
    const result = await fixture.notifier.send(message, options);
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect([503, 451]).toContain(result.statusCode);
    expect(result.error).toMatch(/busy|try again later/);
  });

  it('a final refusal is not retried', async () => {
    fixture.behave('permanent');
    const { message, options } = fixture.send();
    const result = await fixture.notifier.send(message, options);
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect([404, 550]).toContain(result.statusCode);
  });

  it('a receiver that never answers is a retryable failure once the deadline passes', async () => {
    fixture.behave('hang');
    const { message, options } = fixture.send();
    const result = await fixture.notifier.send(message, options);
    expect(result).toMatchObject({ ok: false, retryable: true, statusCode: null });
    expect(result.error).toMatch(/time/i);
  });

  it('nobody listening is a retryable network failure', async () => {
    const { message, options } = fixture.send(fixture.urlFor(`127.0.0.1:${await closedPort()}`));
    const result = await fixture.notifier.send(message, options);
    expect(result).toMatchObject({ ok: false, retryable: true, statusCode: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('a link-local target is refused without trying, and not retried', async () => {
    const { message, options } = fixture.send(fixture.urlFor('169.254.169.254:80'));
    const result = await fixture.notifier.send(message, options);
    expect(result).toMatchObject({ ok: false, retryable: false, statusCode: null });
    expect(result.error).toContain('link-local address 169.254.169.254');
  });
});

describe('email over TLS checks the certificate unless told not to', () => {
  const starttls = smtpFixture('starttls');
  const plainOnly = smtpFixture('none');
  beforeAll(async () => {
    await starttls.start();
    await plainOnly.start();
  });
  afterAll(async () => {
    await starttls.stop();
    await plainOnly.stop();
  });

  it('refuses a self-signed certificate when the check is on (the default)', async () => {
    const { message, options } = starttls.send();
    const target = options.target!;
    const result = await starttls.notifier.send(message, {
      ...options,
      target: { ...target, options: { ...target.options, tls_verify: undefined } },
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/self[- ]signed certificate/i);
    expect(starttls.accepted()).toBe(0);
  });

  it('STARTTLS required: a server that cannot upgrade gets nothing in plain text', async () => {
    const { message, options } = plainOnly.send();
    const target = options.target!;
    const result = await plainOnly.notifier.send(message, {
      ...options,
      target: { ...target, options: { ...target.options, security: 'starttls' } },
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/STARTTLS/);
    expect(plainOnly.accepted()).toBe(0);
  });
});
