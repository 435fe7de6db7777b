import type { Formatter } from './outgoing.js';
import { jsonRequest, truncate } from './outgoing.js';
import { plainText, summarize } from './event-summary.js';

const TAGS = { info: ['clapper'], success: ['white_check_mark'], warning: ['warning'], error: ['rotating_light'] };
const PRIORITY = { info: 3, success: 3, warning: 4, error: 5 };

/**
 * ntfy: the webhook URL is the topic's URL (https://ntfy.sh/mytopic). We publish as JSON to the server's root
 * (ntfy's JSON publishing), because titles in headers cannot carry non-ASCII names. An access token, if set,
 * is sent as a bearer token.
 */
export const formatNtfy: Formatter = (event, context) => {
  const summary = summarize(event);
  const url = new URL(context.webhook.url);
  const topic = url.pathname.replace(/^\/+|\/+$/g, '');
  url.pathname = '/';
  const priority = context.webhook.options.priority ?? PRIORITY[summary.level];
  return jsonRequest(
    context,
    {
      topic,
      title: truncate(summary.title, 250),
      message: truncate(plainText(summary), 4000),
      tags: TAGS[summary.level],
      priority: Math.min(5, Math.max(1, priority)),
    },
    context.secret ? { authorization: `Bearer ${context.secret}` } : {},
    url.toString(),
  );
};
