import type { Formatter } from './outgoing.js';
import { jsonRequest, truncate } from './outgoing.js';
import { plainText, summarize } from './event-summary.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Telegram Bot API sendMessage. The webhook URL is the API's base (https://api.telegram.org, or a local Bot
 * API server); the bot token is the secret and goes into the path only when sending.
 */
export const formatTelegram: Formatter = (event, context) => {
  const summary = summarize(event);
  const base = context.webhook.url.replace(/\/+$/, '');
  const text = `<b>${escapeHtml(summary.title)}</b>\n${escapeHtml(plainText(summary))}`;
  return jsonRequest(
    context,
    { chat_id: context.webhook.options.chat_id, text: truncate(text, 4096), parse_mode: 'HTML', disable_web_page_preview: true },
    {},
    `${base}/bot${context.secret ?? ''}/sendMessage`,
  );
};
