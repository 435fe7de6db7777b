// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeFetch, renderWithProviders } from '../../test/render';
import { SecurityForm } from './SecurityForm';
import { ActivityMonitorForm } from './ActivityMonitorForm';

const config = {
  JF_HOST: 'http://jf',
  APP_USER: 'admin',
  REQUIRE_LOGIN: true,
  IS_JELLYFIN: true,
  MANAGED_BY: 'ui',
  settings: { EXTERNAL_URL: '', ServerID: null, preferred_admin: null },
};

describe('security form', () => {
  let sent: Array<Record<string, string>>;
  beforeEach(() => {
    sent = [];
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/getconfig': config,
        'POST /api/updateCredentials': (init?: RequestInit) => {
          const body = JSON.parse(String(init?.body)) as Record<string, string>;
          sent.push(body);
          return { isValid: true, errorMessage: '' };
        },
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('refuses a new password under 6 characters when the current one is given, without calling the server', async () => {
    renderWithProviders(<SecurityForm />);
    await waitFor(() => expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('admin'));
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old-secret' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The new password must be at least 6 characters long');
    expect(sent).toEqual([]);
  });

  it('requires the username', async () => {
    renderWithProviders(<SecurityForm />);
    await waitFor(() => expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('admin'));
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Username is required');
  });

  it('sends SHA3-512 digests, never the passwords, and shows "password updated"', async () => {
    renderWithProviders(<SecurityForm />);
    await waitFor(() => expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('admin'));
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old-secret' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Password updated');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.username).toBe('admin');
    expect(sent[0]!.current_password).toMatch(/^[0-9a-f]{128}$/);
    expect(sent[0]!.new_password).toMatch(/^[0-9a-f]{128}$/);
    expect(JSON.stringify(sent[0])).not.toContain('secret');
  });
});

describe('security form: require-login and API keys', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('warns that existing API keys stay valid when require-login is switched on, and revokes them on request', async () => {
    const deleted: unknown[] = [];
    let requireLogin = false;
    let keys = [
      { id: 1, name: 'grafana', key: 'rs_abcde…', created_at: '2026-01-01T00:00:00Z', last_used_at: null, created_by: 'anonymous' },
      { id: 2, name: 'script', key: 'rs_fghij…', created_at: '2026-01-02T00:00:00Z', last_used_at: null, created_by: 'admin' },
    ];
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/getconfig': () => ({ ...config, REQUIRE_LOGIN: requireLogin }),
        'POST /api/setRequireLogin': (init?: RequestInit) => {
          requireLogin = (JSON.parse(String(init?.body)) as { REQUIRE_LOGIN: boolean }).REQUIRE_LOGIN;
          return { message: 'ok' };
        },
        'GET /api/keys': () => keys,
        'DELETE /api/keys': (init?: RequestInit) => {
          const { id } = JSON.parse(String(init?.body)) as { id: number };
          deleted.push(id);
          keys = keys.filter((key) => key.id !== id);
          return { message: 'API key deleted' };
        },
      }),
    );
    renderWithProviders(<SecurityForm />);
    const yes = await screen.findByRole('radio', { name: 'Yes' });
    await waitFor(() => expect((screen.getByRole('radio', { name: 'No' }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(yes);
    const warning = await screen.findByTestId('keys-stay-valid');
    expect(warning.textContent).toContain('Existing API keys (2) keep working now that login is required.');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke all API keys' }));
    await waitFor(() => expect(deleted).toEqual([1, 2]));
    await waitFor(() => expect(screen.queryByTestId('keys-stay-valid')).toBeNull());
    expect(requireLogin).toBe(true);
  });
});

describe('activity monitor form', () => {
  let saved: unknown[];
  beforeEach(() => {
    saved = [];
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/getActivityMonitorSettings': {
          activeSessionsInterval: 1000,
          idleInterval: 5000,
          minimumPlaySeconds: 30,
          mergeWindowMinutes: 10,
        },
        'POST /api/setActivityMonitorSettings': (init?: RequestInit) => {
          saved.push(JSON.parse(String(init?.body)));
          return { activeSessionsInterval: 2000, idleInterval: 5000, minimumPlaySeconds: 30, mergeWindowMinutes: 10, message: 'ok' };
        },
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows range messages, disables saving, and warns when active is greater than idle', async () => {
    renderWithProviders(<ActivityMonitorForm />);
    const active = await screen.findByLabelText('Active sessions interval (ms)');
    const idle = screen.getByLabelText('Idle interval (ms)');
    expect((active as HTMLInputElement).value).toBe('1000');
    fireEvent.change(active, { target: { value: '400' } });
    expect(screen.getByText('Enter a value from 500 to 10000 ms, in steps of 100 ms')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(idle, { target: { value: '40000' } });
    expect(screen.getByText('Enter a value from 1000 to 30000 ms, in steps of 1000 ms')).toBeTruthy();
    fireEvent.change(active, { target: { value: '8000' } });
    fireEvent.change(idle, { target: { value: '5000' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('monitor-warning')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('saves valid intervals and shows that they apply in real time', async () => {
    renderWithProviders(<ActivityMonitorForm />);
    const active = await screen.findByLabelText('Active sessions interval (ms)');
    fireEvent.change(active, { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Settings applied in real time');
    expect(saved).toEqual([{ activeSessionsInterval: 2000, idleInterval: 5000 }]);
  });
});
