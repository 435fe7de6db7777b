/** What a masked part of a URL reads as in answers and in the form. */
export const URL_MASK = '********';

/** Query parameters that carry credentials (Google Chat's key and token, ?token= of many services). */
const SECRET_QUERY = /^(token|access_token|auth|key|api_?key|secret|password|pass|sig|signature)$/i;

/**
 * The URL with the parts that act as credentials replaced by URL_MASK, or null when it holds none. Several
 * services put the whole credential in the URL: Discord (/api/webhooks/{id}/{token}), Slack
 * (hooks.slack.com/services/T…/B…/{token}), Microsoft Teams, Home Assistant and n8n (/webhook/{id}), a
 * Telegram bot path (/bot{token}/), a password in the user info, or a token in the query. Anyone who reads
 * such a URL can post as Reelstat, so it is treated as a secret: stored sealed and shown masked.
 */
export function maskUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  let masked = false;
  const mask = (): string => {
    masked = true;
    return URL_MASK;
  };
  if (url.password) url.password = mask();
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/');
  const last = segments.findLastIndex((segment) => segment !== '');
  if (/(^|\.)discord(app)?\.com$/.test(host)) {
    // /api[/v10]/webhooks/{id}/{token}: the id alone cannot post.
    const at = segments.indexOf('webhooks');
    if (at >= 0 && segments[at + 2]) segments[at + 2] = mask();
  } else if (host === 'hooks.slack.com') {
    // /services/T…/B…/{token}: the workspace and bot ids stay readable.
    if (last > 1) segments[last] = mask();
  } else if (host.endsWith('.webhook.office.com')) {
    // /webhookb2/{ids and key}/IncomingWebhook/{id}/{key}: all of it authorises.
    for (let i = 2; i < segments.length; i++) if (segments[i]) segments[i] = mask();
  } else {
    segments.forEach((segment, i) => {
      if (/^bot\d+:[\w-]+$/.test(segment) || segment === `bot${URL_MASK}`) segments[i] = `bot${mask()}`;
      // Home Assistant, n8n and similar: /webhook/{id}, where the id is the credential.
      else if (i === last && i > 0 && /^(webhook|webhooks|hooks)$/i.test(segments[i - 1]!)) segments[i] = mask();
    });
  }
  if (masked) url.pathname = segments.join('/');
  for (const key of [...new Set(url.searchParams.keys())]) if (SECRET_QUERY.test(key)) url.searchParams.set(key, mask());
  return masked ? url.toString() : null;
}

/** The URL as answers show it: masked when it holds a credential. */
export function shownUrl(url: string): string {
  return maskUrl(url) ?? url;
}
