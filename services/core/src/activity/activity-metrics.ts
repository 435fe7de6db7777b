import client, { type Registry } from 'prom-client';

/**
 * The activity monitor's Prometheus metrics. Labels stay bounded: the server's name and the play method,
 * never titles, users or addresses. Created once per registry (a process may lead, step down and lead again).
 */
export class ActivityMetrics {
  readonly sessions: client.Gauge<'server' | 'play_method'>;
  readonly transcodes: client.Gauge<'server'>;
  readonly streamBitrate: client.Gauge<'server'>;
  readonly plays: client.Counter<'server' | 'play_method'>;
  readonly watchSeconds: client.Counter<'server' | 'play_method'>;
  readonly libraryPlays: client.Counter<'server' | 'library'>;
  readonly libraryWatchSeconds: client.Counter<'server' | 'library'>;
  readonly pollDuration: client.Histogram<'server'>;
  readonly pollErrors: client.Counter<'server' | 'kind'>;
  readonly serverUp: client.Gauge<'server'>;

  private constructor(registry: Registry) {
    const registers = [registry];
    this.sessions = new client.Gauge({
      name: 'reelstat_activity_sessions',
      help: 'Sessions playing something now, by media server and play method',
      labelNames: ['server', 'play_method'],
      registers,
    });
    this.transcodes = new client.Gauge({
      name: 'reelstat_activity_transcodes',
      help: 'Sessions being transcoded now',
      labelNames: ['server'],
      registers,
    });
    this.streamBitrate = new client.Gauge({
      name: 'reelstat_activity_stream_bitrate_bits_per_second',
      help: 'Total bitrate of the streams playing now',
      labelNames: ['server'],
      registers,
    });
    this.plays = new client.Counter({
      name: 'reelstat_activity_plays_total',
      help: 'Plays recorded in the history',
      labelNames: ['server', 'play_method'],
      registers,
    });
    this.watchSeconds = new client.Counter({
      name: 'reelstat_activity_watch_seconds_total',
      help: 'Played (unpaused) seconds of the plays recorded',
      labelNames: ['server', 'play_method'],
      registers,
    });
    this.libraryPlays = new client.Counter({
      name: 'reelstat_library_plays_total',
      help: 'Plays recorded in the history, by media server and library name',
      labelNames: ['server', 'library'],
      registers,
    });
    this.libraryWatchSeconds = new client.Counter({
      name: 'reelstat_library_watch_seconds_total',
      help: 'Played (unpaused) seconds of the plays recorded, by media server and library name',
      labelNames: ['server', 'library'],
      registers,
    });
    this.pollDuration = new client.Histogram({
      name: 'reelstat_activity_poll_duration_seconds',
      help: 'Time of one activity monitor poll: fetching /Sessions and writing the changes',
      labelNames: ['server'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.pollErrors = new client.Counter({
      name: 'reelstat_activity_poll_errors_total',
      help: 'Failed activity monitor polls, by kind (media server error kind, or database)',
      labelNames: ['server', 'kind'],
      registers,
    });
    this.serverUp = new client.Gauge({
      name: 'reelstat_media_server_up',
      help: '1 when the last activity poll reached the media server, 0 when it failed',
      labelNames: ['server'],
      registers,
    });
  }

  private static readonly byRegistry = new WeakMap<Registry, ActivityMetrics>();

  static of(registry: Registry): ActivityMetrics {
    let metrics = ActivityMetrics.byRegistry.get(registry);
    if (!metrics) {
      metrics = new ActivityMetrics(registry);
      ActivityMetrics.byRegistry.set(registry, metrics);
    }
    return metrics;
  }
}
