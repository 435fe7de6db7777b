// Login protection, security headers and connection limits, tried as an attacker would, over real HTTP.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, digest, startApiHarness, type ApiHarness } from '../test-support/api-harness.js';

const guess = (username: string, i: number, forwardedFor: string) => ({
  body: { username, password: digest(`wrong-${i}`) },
  headers: { 'x-forwarded-for': forwardedFor } as Record<string, string>,
});

describe('without a trusted proxy (TRUST_PROXY unset)', () => {
  let harness: ApiHarness;
  beforeAll(async () => {
    harness = await startApiHarness({ LOGIN_MAX_FAILURES: '5', HTTP_MAX_SOCKETS_PER_CLIENT: '6' });
    await createAdmin(harness);
  });
  afterAll(async () => harness.stop());

  it('ignores X-Forwarded-For: rotating it does not escape the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await harness.call('POST', '/auth/login', guess('admin', i, `203.0.113.${i}`))).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array(25).fill(429));
  });

  it('answers createuser with 403 once an administrator exists, and rate-limits it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await harness.call('POST', '/auth/createuser', { body: { username: `late${i}`, password: digest('secret-9') } })).status,
      );
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429, 429]);
  });

  it('sends the security headers on every response: dashboard, client routes, API, errors, probes', async () => {
    for (const path of [
      '/',
      '/settings',
      '/libraries/some-id',
      '/auth/isConfigured',
      '/api/nothing-here',
      '/api/getconfig',
      '/healthz',
      '/readyz',
    ]) {
      const res = await fetch(`${harness.url}${path}`, { headers: { accept: 'text/html,application/json' } });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self';");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain('frame-src https://www.openstreetmap.org');
      expect(csp, path).not.toContain('unsafe-eval');
      expect(csp, path).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      // Plain HTTP: no HSTS (a browser would ignore it, and a later HTTP-only install would be locked out).
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
      await res.arrayBuffer();
    }
  });

  it('caps the sockets one client may hold open', async () => {
    const port = new URL(harness.url).port;
    const sockets: net.Socket[] = [];
    const open = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.once('error', reject);
        sockets.push(socket);
      });
    try {
      for (let i = 0; i < 6; i++) await open();
      const extra = await open();
      const closed = await new Promise<boolean>((resolve) => {
        extra.once('close', () => resolve(true));
        extra.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      expect(closed).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let harness: ApiHarness;
  beforeAll(async () => {
    harness = await startApiHarness({ LOGIN_MAX_FAILURES: '5', TRUST_PROXY: 'loopback' });
    await createAdmin(harness);
  });
  afterAll(async () => harness.stop());

  it('counts 20 parallel guesses from one address before checking any password: 5 × 401, then 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => harness.call('POST', '/auth/login', guess('someone', i, '198.51.100.7'))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('gives the reservation back on success: a successful login clears its address count', async () => {
    const from = (i: number) => guess('nobody', i, '192.0.2.200');
    for (let i = 0; i < 4; i++) expect((await harness.call('POST', '/auth/login', from(i))).status).toBe(401);
    const ok = await harness.call('POST', '/auth/login', {
      body: { username: 'Admin ', password: digest('secret-1') },
      headers: { 'x-forwarded-for': '192.0.2.200' },
    });
    expect(ok.status).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 6; i++) after.push((await harness.call('POST', '/auth/login', from(i))).status);
    expect(after).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('limits guesses per username too, whatever addresses they come from', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await harness.call('POST', '/auth/login', guess('admin', i, `192.0.2.${i}`))).status);
    // The per-username limit is 4 × LOGIN_MAX_FAILURES.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
  });
});
