import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { adminToken, api, ensureReady, openLoggedIn, until } from './helpers.js';

/** A real receiver on loopback: records what the dispatcher sends. */
const received: Array<{ event: string }> = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    received.push(JSON.parse(body) as { event: string });
    res.end('ok');
  });
});

test.beforeAll(async () => {
  await ensureReady();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

test('webhooks: create, edit, toggle events, test, and see the delivery in the log', async ({ page }) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  const form = page.getByTestId('webhook-form');
  // SPEC.md §5: the form checks the URL first.
  await form.getByLabel('Name').fill('e2e-hook');
  await form.getByRole('button', { name: 'Save webhook' }).click();
  await expect(form.getByRole('alert')).toHaveText('Webhook URL is required');
  await expect(page.getByTestId('schedule-preview')).toContainText('Next runs');

  await form.getByLabel('URL').fill(url);
  await form.getByLabel('Type').selectOption('generic');
  await form.getByLabel('Trigger').selectOption('event');
  await form.getByRole('button', { name: 'Save webhook' }).click();
  await expect(form.getByRole('alert')).toHaveText('Event type is required for an event based webhook');
  await form.getByLabel('Event').selectOption('playback_ended');
  await form.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByText('Webhook saved successfully!')).toBeVisible();
  await expect(page.getByTestId('generated-secret')).toBeVisible();
  // SPEC.md §4: the form resets to a scheduled discord webhook.
  await expect(form.getByLabel('Type')).toHaveValue('discord');
  await expect(form.getByLabel('Trigger')).toHaveValue('scheduled');
  const table = page.getByTestId('webhooks-table');
  await expect(table.getByRole('row').filter({ hasText: 'e2e-hook' })).toHaveCount(1);

  await table.getByRole('button', { name: 'Edit webhook e2e-hook' }).click();
  await expect(form.getByLabel('Event')).toHaveValue('playback_ended');
  await form.getByLabel('Name').fill('e2e-hook-2');
  await form.getByRole('button', { name: 'Save webhook' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'e2e-hook-2' })).toHaveCount(1);

  // A toggle with webhooks flips them all; one without pre-fills the form.
  const ended = page.getByRole('switch', { name: 'Playback ended' });
  await expect(ended).toHaveAttribute('aria-checked', 'true');
  await ended.click();
  await expect(ended).toHaveAttribute('aria-checked', 'false');
  await expect(table.getByRole('row').filter({ hasText: 'e2e-hook-2' })).toContainText('No');
  await ended.click();
  await expect(ended).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('switch', { name: 'Playback started' }).click();
  await expect(form.getByLabel('Trigger')).toHaveValue('event');
  await expect(form.getByLabel('Event')).toHaveValue('playback_started');
  await expect(form.getByLabel('URL')).toHaveValue('');

  await table.getByRole('button', { name: 'Test webhook e2e-hook-2' }).click();
  await expect(page.getByText('Webhook e2e-hook-2 test triggered successfully!')).toBeVisible();
  await until('the test delivery', async () => received.some((r) => r.event === 'test'), 30_000);
  await table.getByRole('button', { name: 'Deliveries of webhook e2e-hook-2' }).click();
  const log = page.getByTestId('webhook-deliveries');
  await expect(log.getByRole('row').filter({ hasText: 'test' }).filter({ hasText: 'Delivered' })).toHaveCount(1, { timeout: 30_000 });
});

test('webhooks: filters, priority and TLS settings in the form; a URL with a token is shown masked and kept on edit', async ({ page }) => {
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  const form = page.getByTestId('webhook-form');
  const table = page.getByTestId('webhooks-table');
  const save = async () => {
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await expect(page.getByText('Webhook saved successfully!')).toBeVisible();
    await page.getByRole('button', { name: 'Close' }).first().click();
  };

  // Discord, on transcoded plays only.
  await form.getByLabel('Name').fill('e2e-discord');
  await form.getByLabel('URL').fill('https://discord.com/api/webhooks/4242/e2e-secret-token');
  await form.getByLabel('Trigger').selectOption('event');
  await form.getByLabel('Event').selectOption('playback_ended');
  const filters = form.getByTestId('webhook-filters');
  await filters.getByRole('checkbox', { name: 'Transcode' }).check();
  await save();
  await table.getByRole('button', { name: 'Edit webhook e2e-discord' }).click();
  await expect(form.getByLabel('URL')).toHaveValue('https://discord.com/api/webhooks/4242/********');
  await expect(form.getByText(/holds a token and stays as stored/)).toBeVisible();
  await expect(filters.getByRole('checkbox', { name: 'Transcode' })).toBeChecked();
  await expect(filters.getByRole('checkbox', { name: 'DirectPlay' })).not.toBeChecked();
  await form.getByLabel('Name').fill('e2e-discord-2');
  await save();
  await expect(table.getByRole('row').filter({ hasText: 'e2e-discord-2' })).toHaveCount(1);
  const token = await adminToken();
  const listed = await api<Array<{ name: string; url: string; filters: unknown }>>('/webhooks', { token });
  expect(listed.find((w) => w.name === 'e2e-discord-2')).toMatchObject({
    url: 'https://discord.com/api/webhooks/4242/********',
    filters: { play_methods: ['Transcode'] },
  });
  expect(JSON.stringify(listed)).not.toContain('e2e-secret-token');

  // ntfy with a priority.
  await form.getByLabel('Name').fill('e2e-ntfy');
  await form.getByLabel('URL').fill('http://127.0.0.1:9/reelstat');
  await form.getByLabel('Type').selectOption('ntfy');
  await form.getByLabel('Priority (1–5)').fill('4');
  await save();
  await table.getByRole('button', { name: 'Edit webhook e2e-ntfy' }).click();
  await expect(form.getByLabel('Priority (1–5)')).toHaveValue('4');
  await form.getByRole('button', { name: 'Cancel' }).click();

  // Email over implicit TLS to a server with a self-signed certificate.
  await form.getByLabel('Name').fill('e2e-mail');
  await form.getByLabel('Type').selectOption('email');
  await form.getByLabel('URL').fill('smtps://127.0.0.1:9');
  await form.getByLabel('From').fill('reelstat@example.org');
  await form.getByLabel('To').fill('admin@example.org');
  await form.getByLabel('Security').selectOption('tls');
  await form.getByRole('checkbox', { name: /Verify the server's certificate/ }).uncheck();
  await save();
  await table.getByRole('button', { name: 'Edit webhook e2e-mail' }).click();
  await expect(form.getByLabel('Security')).toHaveValue('tls');
  await expect(form.getByRole('checkbox', { name: /Verify the server's certificate/ })).not.toBeChecked();
  const mail = (await api<Array<{ name: string; options: unknown }>>('/webhooks', { token })).find((w) => w.name === 'e2e-mail');
  expect(mail?.options).toMatchObject({ security: 'tls', tls_verify: false, from: 'reelstat@example.org' });
});
