import type { Formatter } from './outgoing.js';
import { plainText, summarize } from './event-summary.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An e-mail with a plain-text and an HTML part; the SMTP settings are the sender's business. */
export const formatEmail: Formatter = (event) => {
  const summary = summarize(event);
  const rows = summary.fields.map((f) => `<tr><th align="left">${escapeHtml(f.name)}</th><td>${escapeHtml(f.value)}</td></tr>`).join('');
  const html = [
    `<h2>${escapeHtml(summary.title)}</h2>`,
    `<p>${escapeHtml(summary.description)}</p>`,
    rows ? `<table>${rows}</table>` : '',
    summary.lines.length > 0 ? `<ul>${summary.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '',
  ].join('\n');
  return { kind: 'email', subject: `[Reelstat] ${summary.title}`, text: plainText(summary), html };
};
