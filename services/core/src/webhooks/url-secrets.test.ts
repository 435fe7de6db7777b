import { describe, expect, it } from 'vitest';
import { maskUrl, shownUrl } from './url-secrets.js';

describe('URLs that hold credentials', () => {
  it.each([
    ['https://discord.com/api/webhooks/1234/AbC-token_x', 'https://discord.com/api/webhooks/1234/********'],
    ['https://discordapp.com/api/v10/webhooks/1234/tok', 'https://discordapp.com/api/v10/webhooks/1234/********'],
    ['https://hooks.slack.com/services/T0001/B0002/XXXXsecret', 'https://hooks.slack.com/services/T0001/B0002/********'],
    [
      'https://acme.webhook.office.com/webhookb2/a@b/IncomingWebhook/c/d',
      'https://acme.webhook.office.com/webhookb2/********/********/********/********',
    ],
    ['http://homeassistant.lan:8123/api/webhook/reelstat-8f2a', 'http://homeassistant.lan:8123/api/webhook/********'],
    ['https://api.telegram.org/bot123456:AAE-x_y/sendMessage', 'https://api.telegram.org/bot********/sendMessage'],
    ['https://user:hunter2@example.org/hook', 'https://user:********@example.org/hook'],
    [
      'https://chat.googleapis.com/v1/spaces/S/messages?key=k1&token=t1&x=1',
      'https://chat.googleapis.com/v1/spaces/S/messages?key=********&token=********&x=1',
    ],
    ['smtps://mailer:secret@mail.lan:465', 'smtps://mailer:********@mail.lan:465'],
  ])('%s is shown as %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
    expect(shownUrl(url)).toBe(masked);
    // Masking what is already masked changes nothing (answers of stored masked URLs).
    expect(maskUrl(masked)).toBe(masked);
  });

  it.each(['http://ntfy.lan/reelstat', 'https://gotify.example.org', 'http://127.0.0.1:9/hook', 'smtp://mail.lan:587', 'not a url'])(
    '%s holds none',
    (url) => {
      expect(maskUrl(url)).toBeNull();
      expect(shownUrl(url)).toBe(url);
    },
  );
});
