import type { Formatter } from './outgoing.js';
import { jsonRequest, truncate } from './outgoing.js';
import { summarize } from './event-summary.js';

/** Discord's documented limits for one embed. */
const LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, total: 6000 };
const COLOURS = { info: 0x5865f2, success: 0x57f287, warning: 0xfee75c, error: 0xed4245 };

/** Discord's execute-webhook payload: one embed with title, description, fields, colour and timestamp. */
export const formatDiscord: Formatter = (event, context) => {
  const summary = summarize(event);
  const description = [summary.description, ...(summary.lines.length > 0 ? ['', ...summary.lines] : [])].join('\n');
  const embed = {
    title: truncate(summary.title, LIMITS.title),
    description: truncate(description, LIMITS.description),
    color: COLOURS[summary.level],
    fields: summary.fields.slice(0, LIMITS.fields).map((field) => ({
      name: truncate(field.name, LIMITS.fieldName),
      value: truncate(field.value || '-', LIMITS.fieldValue),
      inline: field.inline ?? false,
    })),
    footer: { text: truncate(event.server ? `Reelstat · ${event.server.name}` : 'Reelstat', LIMITS.footer) },
    timestamp: event.occurred_at,
  };
  // The sum of every text of the embeds must stay under 6000 characters: shorten the description if needed.
  const others = embed.title.length + embed.footer.text.length + embed.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  embed.description = truncate(embed.description, Math.max(1, LIMITS.total - others));
  return jsonRequest(context, { username: 'Reelstat', embeds: [embed], allowed_mentions: { parse: [] } });
};
