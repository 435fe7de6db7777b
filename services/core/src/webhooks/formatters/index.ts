import type { WebhookType } from '@reelstat/contract';
import type { Formatter } from './outgoing.js';
import { formatDiscord } from './discord.js';
import { formatGeneric } from './generic.js';
import { formatNtfy } from './ntfy.js';
import { formatGotify } from './gotify.js';
import { formatSlack } from './slack.js';
import { formatTelegram } from './telegram.js';
import { formatEmail } from './email.js';

/** One formatter per webhook type: each turns the same events into that service's message. */
export const formatters: Record<WebhookType, Formatter> = {
  discord: formatDiscord,
  generic: formatGeneric,
  ntfy: formatNtfy,
  gotify: formatGotify,
  slack: formatSlack,
  telegram: formatTelegram,
  email: formatEmail,
};

export type { OutgoingMessage, FormatContext, Formatter } from './outgoing.js';
export { signBody, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './generic.js';
