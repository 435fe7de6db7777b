import type { PlaybackData, WebhookEvent } from '../webhook-events.js';

/** What every type shows of an event: a title, short fields and a few lines of text. */
export interface EventSummary {
  title: string;
  /** One-line description. */
  description: string;
  fields: Array<{ name: string; value: string; inline?: boolean }>;
  /** Longer text lines (recently added items, report rankings). */
  lines: string[];
  /** Severity, for colours, tags and priorities. */
  level: 'info' | 'success' | 'warning' | 'error';
}

const MAX_LINES = 25;

export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min ${String(total % 60).padStart(2, '0')} s`;
  return `${total} s`;
}

function episodeCode(season: number | null, episode: number | null): string {
  if (season === null && episode === null) return '';
  const part = (letter: string, n: number | null) => (n === null ? '' : `${letter}${String(n).padStart(2, '0')}`);
  return `${part('S', season)}${part('E', episode)}`;
}

export function playTitle(data: PlaybackData): string {
  const { item } = data;
  if (item.series_name)
    return `${item.series_name} ${episodeCode(item.season_number, item.episode_number)} · ${item.name}`.replace(/\s+·/, ' ·');
  return item.name;
}

function playbackFields(data: PlaybackData, ended: boolean): EventSummary['fields'] {
  const fields: EventSummary['fields'] = [
    { name: 'User', value: data.user.name, inline: true },
    { name: 'Play method', value: data.play_method, inline: true },
  ];
  if (data.client || data.device_name)
    fields.push({ name: 'Client', value: [data.client, data.device_name].filter(Boolean).join(' · '), inline: true });
  if (ended) {
    fields.push({ name: 'Watched', value: formatDuration(data.played_seconds ?? 0), inline: true });
    if (data.paused_seconds) fields.push({ name: 'Paused', value: formatDuration(data.paused_seconds), inline: true });
  }
  return fields;
}

function capped(lines: string[]): string[] {
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES - 1), `… and ${lines.length - (MAX_LINES - 1)} more`];
}

export function summarize(event: WebhookEvent): EventSummary {
  const server = event.server ? ` on ${event.server.name}` : '';
  switch (event.event) {
    case 'playback_started':
      return {
        title: `▶ ${playTitle(event.data)}`,
        description: `${event.data.user.name} started playing ${playTitle(event.data)}${server}`,
        fields: playbackFields(event.data, false),
        lines: [],
        level: 'info',
      };
    case 'playback_ended':
      return {
        title: `■ ${playTitle(event.data)}`,
        description: `${event.data.user.name} watched ${playTitle(event.data)} for ${formatDuration(event.data.played_seconds ?? 0)}${server}`,
        fields: playbackFields(event.data, true),
        lines: [],
        level: 'info',
      };
    case 'media_recently_added': {
      const { data } = event;
      const lines = [
        ...data.movies.map((movie) => `🎬 ${movie.name}${movie.year ? ` (${movie.year})` : ''}`),
        ...data.series.map((series) => {
          const codes = series.episodes.map((e) => episodeCode(e.season_number, e.episode_number)).filter(Boolean);
          const count = series.episodes.length;
          return `📺 ${series.name}: ${count} new episode${count === 1 ? '' : 's'}${codes.length > 0 ? ` (${codes.slice(0, 6).join(', ')}${codes.length > 6 ? ', …' : ''})` : ''}`;
        }),
        ...data.other.map((item) => `• ${item.name} (${item.type})`),
      ];
      return {
        title: `${data.total} new item${data.total === 1 ? '' : 's'} added${server}`,
        description: `Recently added${server}`,
        fields: [],
        lines: capped(lines),
        level: 'success',
      };
    }
    case 'task_failed':
      return {
        title: `Task ${event.data.task} failed${server}`,
        description: event.data.error,
        fields: [],
        lines: [],
        level: 'error',
      };
    case 'media_server_unreachable':
      return {
        title: `${event.server.name} is unreachable`,
        description: event.data.error ?? 'The media server does not answer.',
        fields: [],
        lines: [],
        level: 'error',
      };
    case 'media_server_back':
      return {
        title: `${event.server.name} is back`,
        description: 'The media server answers again.',
        fields: [],
        lines: [],
        level: 'success',
      };
    case 'monthly_report': {
      const { data } = event;
      return {
        title: `Monthly report: ${data.period.label}${server}`,
        description: `${data.plays} plays, ${formatDuration(data.watch_seconds)} watched by ${data.active_users} user${data.active_users === 1 ? '' : 's'} (${data.period.time_zone})`,
        fields: [
          { name: 'Plays', value: String(data.plays), inline: true },
          { name: 'Watch time', value: formatDuration(data.watch_seconds), inline: true },
          { name: 'Active users', value: String(data.active_users), inline: true },
        ],
        lines: [
          ...(data.top_items.length > 0 ? ['Top items:'] : []),
          ...data.top_items.map((item, i) => `${i + 1}. ${item.name}: ${item.plays} plays, ${formatDuration(item.watch_seconds)}`),
          ...(data.top_users.length > 0 ? ['Top users:'] : []),
          ...data.top_users.map((user, i) => `${i + 1}. ${user.name}: ${user.plays} plays, ${formatDuration(user.watch_seconds)}`),
        ],
        level: 'info',
      };
    }
    case 'test':
      return { title: 'Reelstat test notification', description: event.data.message, fields: [], lines: [], level: 'info' };
  }
}

/** Plain text for the types without rich formatting (ntfy, Gotify, Telegram, email text part). */
export function plainText(summary: EventSummary): string {
  return [
    summary.description,
    ...summary.fields.map((field) => `${field.name}: ${field.value}`),
    ...(summary.lines.length > 0 ? ['', ...summary.lines] : []),
  ].join('\n');
}
