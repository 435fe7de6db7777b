import { createHash } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { readE2E } from './env.js';

/** Shared by the e2e specs: the backend started by global-setup, the admin account and the simulator. */

export const ADMIN = 'admin';
export const PASSWORD = 'reelstat-e2e';
export const baseUrl = () => readE2E('url');
export const simUrl = () => readE2E('simUrl');
export const simKey = () => readE2E('simKey');

export const digest = (password: string) => createHash('sha3-512').update(password).digest('hex');

export async function api<T>(path: string, options: { method?: string; body?: unknown; token?: string | null } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(new URL(path, baseUrl()), {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${options.method ?? 'GET'} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The simulator's control API. */
export async function sim<T>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
  const response = await fetch(new URL(`/__control${path}`, simUrl()), {
    method,
    headers: { 'X-Emby-Token': simKey(), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sim ${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

let token: string | null = null;

export async function adminToken(): Promise<string> {
  token ??= (await api<{ token: string }>('/auth/login', { method: 'POST', body: { username: ADMIN, password: digest(PASSWORD) } })).token;
  return token;
}

/**
 * The instance is set up (admin account, simulator linked, one full sync done). 00-setup does this through
 * the wizard; a spec run on its own does it through the API.
 */
export async function ensureReady(): Promise<string> {
  const { state } = await api<{ state: number }>('/auth/isConfigured');
  if (state === 0) await api('/auth/createuser', { method: 'POST', body: { username: ADMIN, password: digest(PASSWORD) } });
  const auth = await adminToken();
  if (state !== 2) {
    // Linking starts the first full sync on the server.
    await api('/auth/configSetup/', { method: 'POST', token: auth, body: { JF_HOST: simUrl(), JF_API_KEY: simKey() } });
  }
  await until('the first full sync', async () => (await api<unknown[]>('/api/getLibraries', { token: auth })).length > 0);
  return auth;
}

/** Opens `path` logged in: the token is in localStorage before the app starts, as after a login. */
export async function openLoggedIn(page: Page, path: string): Promise<void> {
  const auth = await ensureReady();
  await page.addInitScript((value) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', value);
  }, auth);
  await page.goto(path);
  await expect(page.locator('main')).toBeAttached();
}

export interface SimUser {
  id: string;
  name: string;
  isHidden?: boolean;
  isDisabled?: boolean;
}
export interface SimItem {
  id: string;
  name: string;
  type: string;
}
export interface PlayRecord {
  playId: string;
  itemName: string;
  userName: string;
  active: boolean;
}

export async function simUsers(): Promise<SimUser[]> {
  const users = await sim<SimUser[]>('/users');
  return users.filter((user) => !user.isHidden && !user.isDisabled);
}

/** Items of a type, with their names (the control API lists ids; the media-server API names them). */
export async function simItems(type: string, limit = 20): Promise<SimItem[]> {
  const ids = await sim<string[]>(`/items?type=${type}&limit=${limit}`);
  const response = await fetch(new URL(`/Items?Ids=${ids.join(',')}`, simUrl()), { headers: { 'X-Emby-Token': simKey() } });
  const { Items } = (await response.json()) as { Items: Array<{ Id: string; Name: string; Type: string }> };
  return Items.map((item) => ({ id: item.Id, name: item.Name, type: item.Type }));
}

/**
 * Plays recorded in history: the activity monitor records plays of at least minimumPlaySeconds; the tests set
 * it to 0, start the plays, let them run a few seconds and stop them.
 */
export async function recordPlays(count: number, options: { client?: string; method?: string } = {}): Promise<PlayRecord[]> {
  const auth = await ensureReady();
  await api('/api/setActivityMonitorSettings', {
    method: 'POST',
    token: auth,
    body: { activeSessionsInterval: 500, idleInterval: 1000, minimumPlaySeconds: 0, mergeWindowMinutes: 0 },
  });
  const users = await simUsers();
  const movies = await simItems('Movie', count);
  const plays: PlayRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const user = users[index % users.length]!;
    const item = movies[index % movies.length]!;
    plays.push(
      await sim<PlayRecord>('/plays', {
        userId: user.id,
        itemId: item.id,
        client: options.client ?? (index % 2 ? 'jellyfin-web' : 'jellyfin-android'),
        deviceId: `e2e-${Date.now()}-${index}`,
        method: options.method ?? (index % 3 === 0 ? 'Transcode' : 'DirectPlay'),
        remote: true,
      }),
    );
  }
  // Right after first-run setup the monitor may not be polling yet (it picks up a new server link within
  // seconds): keep the plays going until Reelstat reports them as live, so none ends unseen.
  await until('the activity monitor to see the plays', async () => (await liveSessionCount()) >= count, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  // A play may already have ended on its own (the simulator ends plays that reach their end).
  for (const play of plays) await sim(`/plays/${play.playId}/stop`, {}).catch(() => undefined);
  return plays;
}

/** Sessions the activity monitor currently sees playing, from its Prometheus gauge (public /metrics). */
export async function liveSessionCount(): Promise<number> {
  const text = await fetch(new URL('/metrics', baseUrl())).then((res) => res.text());
  let total = 0;
  for (const match of text.matchAll(/^reelstat_activity_sessions\{[^}]*\} (\d+)/gm)) total += Number(match[1]);
  return total;
}

export async function historyTotal(): Promise<number> {
  const auth = await adminToken();
  return (await api<{ total: number }>('/api/getHistory?size=10&page=1', { token: auth })).total;
}
