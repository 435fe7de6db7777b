import type { Formatter } from './outgoing.js';
import { jsonRequest } from './outgoing.js';
import { plainText, summarize } from './event-summary.js';

const PRIORITY = { info: 5, success: 5, warning: 7, error: 8 };

/** Gotify: POST {server}/message with the application token in X-Gotify-Key. */
export const formatGotify: Formatter = (event, context) => {
  const summary = summarize(event);
  const url = new URL(context.webhook.url);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/message`;
  return jsonRequest(
    context,
    {
      title: summary.title,
      message: plainText(summary),
      priority: context.webhook.options.priority ?? PRIORITY[summary.level],
      extras: { 'client::display': { contentType: 'text/plain' } },
    },
    context.secret ? { 'x-gotify-key': context.secret } : {},
    url.toString(),
  );
};
