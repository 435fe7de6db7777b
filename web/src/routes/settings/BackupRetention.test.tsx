// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeFetch, renderWithProviders } from '../../test/render';
import { BackupRetention } from './BackupRetention';

describe('backup retention field', () => {
  let sent: unknown[];
  beforeEach(() => {
    sent = [];
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/backup/settings': { retention: 5 },
        'POST /backup/settings': (init?: RequestInit) => {
          const body = JSON.parse(String(init?.body)) as { retention: number };
          sent.push(body);
          return body;
        },
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the saved value and saves a new one', async () => {
    renderWithProviders(<BackupRetention />);
    const input = (await screen.findByLabelText('Keep the newest')) as HTMLInputElement;
    expect(input.value).toBe('5');
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Keeping the newest 12 backups');
    expect(sent).toEqual([{ retention: 12 }]);
  });

  it('refuses a value out of range without calling the server', async () => {
    renderWithProviders(<BackupRetention />);
    const input = await screen.findByLabelText('Keep the newest');
    fireEvent.change(input, { target: { value: '0' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true));
    expect(screen.getByRole('alert').textContent).toBe(
      'Between 1 and 1000. Older backups written by the BackupTask are deleted after each backup; uploaded files are kept.',
    );
    fireEvent.submit(input.closest('form')!);
    expect(sent).toEqual([]);
  });
});
