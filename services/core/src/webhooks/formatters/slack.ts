import type { Formatter } from './outgoing.js';
import { jsonRequest, truncate } from './outgoing.js';
import { summarize } from './event-summary.js';

/** mrkdwn needs &, < and > escaped. */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack incoming webhook: `text` (notifications, fallback) plus Block Kit blocks within Slack's limits. */
export const formatSlack: Formatter = (event, context) => {
  const summary = summarize(event);
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(summary.title, 150), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: truncate(escape(summary.description), 3000) } },
  ];
  if (summary.fields.length > 0) {
    blocks.push({
      type: 'section',
      fields: summary.fields
        .slice(0, 10)
        .map((field) => ({ type: 'mrkdwn', text: truncate(`*${escape(field.name)}*\n${escape(field.value)}`, 2000) })),
    });
  }
  if (summary.lines.length > 0)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: truncate(escape(summary.lines.join('\n')), 3000) } });
  return jsonRequest(context, { text: truncate(`${summary.title}: ${summary.description}`, 3000), blocks });
};
