import { Resvg } from '@resvg/resvg-js';
import type { YearReviewAnswer } from '@reelstat/contract';

/** The shareable card's size: the usual link-preview ratio (1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** DejaVu Sans is on the image (fonts-dejavu-core) and on most Linux systems; resvg needs a real font file. */
const FONT = 'DejaVu Sans';

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** At most `max` characters, with an ellipsis: long titles must not run off the card. */
function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** A watch time as people say it: minutes under an hour, hours with one decimal under ten, whole hours above. */
export function durationText(seconds: number): string {
  const hours = seconds / 3600;
  if (hours < 1) return `${Math.round(seconds / 60)} min`;
  return hours >= 10 ? `${Math.round(hours).toLocaleString('en-US')} h` : `${hours.toFixed(1)} h`;
}

function text(x: number, y: number, size: number, content: string, attributes = ''): string {
  return `<text x="${x}" y="${y}" font-size="${size}" ${attributes}>${escapeXml(content)}</text>`;
}

/** The card as SVG: who and which year, the headline figures, the tops and the comparison with the server. */
export function yearReviewSvg(review: YearReviewAnswer, serverName: string): string {
  const who = review.UserName ?? serverName;
  const average = review.Server.AverageWatchSecondsPerUser;
  const comparison =
    review.UserId && average > 0
      ? `${Math.round((review.WatchSeconds / average) * 100)}% of the average viewer's time (${durationText(average)})`
      : `${review.Server.ActiveUsers} viewers, ${durationText(average)} each on average`;
  const list = (title: string, x: number, rows: Array<{ Name: string; WatchSeconds: number }>) =>
    [
      text(x, 330, 24, title, 'fill="#94a3b8" font-weight="bold"'),
      ...rows.slice(0, 3).map((row, i) => text(x, 372 + i * 38, 24, `${i + 1}. ${clip(row.Name, 22)}`, 'fill="#f8fafc"')),
      ...(rows.length === 0 ? [text(x, 372, 24, '—', 'fill="#64748b"')] : []),
    ].join('');
  const facts = [
    review.BusiestDay ? `Busiest day ${review.BusiestDay.Date}` : null,
    review.BusiestHour ? `busiest hour ${String(review.BusiestHour.Hour).padStart(2, '0')}:00` : null,
    review.LongestBinge ? `longest binge ${durationText(review.LongestBinge.WatchSeconds)} (${clip(review.LongestBinge.Title, 24)})` : null,
  ].filter((fact): fact is string => fact !== null);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${FONT}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1e1b4b"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/>
<rect x="0" y="0" width="12" height="100%" fill="#22d3ee"/>
${text(60, 80, 30, `Reelstat · ${review.Year} in review`, 'fill="#22d3ee" font-weight="bold"')}
${text(60, 140, 48, clip(who, 36), 'fill="#f8fafc" font-weight="bold"')}
${text(60, 230, 72, durationText(review.WatchSeconds), 'fill="#f8fafc" font-weight="bold"')}
${text(420, 230, 72, `${review.Plays.toLocaleString('en-US')} plays`, 'fill="#f8fafc" font-weight="bold"')}
${text(60, 275, 24, comparison, 'fill="#cbd5e1"')}
${list('Top titles', 60, review.TopItems)}
${list('Top series', 440, review.TopSeries)}
${list(
  'Top genres',
  820,
  review.TopGenres.map((genre) => ({ Name: genre.Genre, WatchSeconds: genre.WatchSeconds })),
)}
${text(60, 560, 22, facts.join(' · ') || 'No plays this year', 'fill="#94a3b8"')}
</svg>`;
}

/** The card rasterised to PNG (server-side, so it can be shared as a link or saved as it is). */
export function yearReviewPng(review: YearReviewAnswer, serverName: string): Buffer {
  const svg = yearReviewSvg(review, serverName);
  const rendered = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: FONT }, fitTo: { mode: 'original' } }).render();
  return rendered.asPng();
}
