import type { Runtime } from '../runtime/runtime.js';
import type { LiveSession } from '@reelstat/contract';
import { publishUiEvent } from '../bus/ui-events.js';
import { createMediaServerClient } from '../media-server/create-client.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import { ActivityMetrics } from './activity-metrics.js';
import { ServerMonitor } from './server-monitor.js';
import { settingDefaults } from '../settings/app-settings.js';
import { declaredIntervals } from './declared-intervals.js';

/** How often the set of linked media servers is re-read (a server linked or removed at run time). */
const SERVER_LIST_REFRESH_MS = 5000;
/** /Sessions is small and polled often: fail fast rather than let one slow answer delay the next poll. */
const POLL_CLIENT = { timeoutMs: 10_000, retries: 1 } as const;

export const SESSIONS_UI_EVENT = 'sessions';
/** How long a monitor keeps observing after this process stopped leading, waiting to lead again. */
const STANDBY_MAX_MS = 15 * 60_000;

interface RunningMonitor {
  /** The latest read of its link (settings such as declared intervals change without a restart). */
  link: MediaServerLink;
  monitor: ServerMonitor;
  /** Where its live sessions go (the activity monitor that owns it now; none while on standby). */
  onSessions: ((sessions: LiveSession[]) => void) | undefined;
  stop(): Promise<void>;
}

interface StandbyMonitor {
  running: RunningMonitor;
  expiry: NodeJS.Timeout;
}

/**
 * Monitors of this process that keep observing after it stopped leading, per runtime and media server id.
 * Leadership is lost with the database connection: when the database restarts, this process usually leads
 * again as soon as it is back, and only a monitor that kept polling meanwhile knows the true end of the plays
 * that ended during the outage. The next activity monitor takes it over (it writes its memory only if no
 * other leader wrote in between); otherwise it stops after STANDBY_MAX_MS or at shutdown.
 */
const standbys = new WeakMap<Runtime, Map<string, StandbyMonitor>>();

function standbysOf(runtime: Runtime): Map<string, StandbyMonitor> {
  let map = standbys.get(runtime);
  if (!map) {
    const created = new Map<string, StandbyMonitor>();
    map = created;
    standbys.set(runtime, created);
    runtime.onClose(async () => {
      const all = [...created.values()];
      created.clear();
      await Promise.all(
        all.map((standby) => {
          clearTimeout(standby.expiry);
          return standby.running.stop();
        }),
      );
    });
  }
  return map;
}

/**
 * The activity monitor of the scheduler leader: one ServerMonitor per linked media server, each polling on
 * its own loop (never two polls of one server at once: the next poll is scheduled when the previous one has
 * finished), at the active interval while something plays and the idle interval otherwise. Intervals are
 * read from the settings before every wait, so a change applies at the next poll.
 */
export async function startActivityMonitor(runtime: Runtime): Promise<() => Promise<void>> {
  const metrics = ActivityMetrics.of(runtime.metrics.registry);
  const logger = runtime.logger.child({ component: 'activity-monitor' });
  const monitors = new Map<string, RunningMonitor>();
  const payloads = new Map<string, LiveSession[]>();
  let stopped = false;
  let lastPublishedEmpty = false;
  const onStandby = standbysOf(runtime);

  const publishSessions = async () => {
    const all = [...payloads.values()].flat().sort((a, b) => (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0));
    // While something plays, every poll pushes (positions move); when idle, only the change to empty.
    if (all.length === 0 && lastPublishedEmpty) return;
    lastPublishedEmpty = all.length === 0;
    await publishUiEvent(runtime.bus, SESSIONS_UI_EVENT, all).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not publish the sessions event'),
    );
  };

  const forward = (link: MediaServerLink) => (sessions: LiveSession[]) => {
    if (stopped) return;
    payloads.set(link.id, sessions);
    void publishSessions();
  };

  /** The monitor of a link: the one on standby for it if its address and key are unchanged, else a new one. */
  const monitorOf = (link: MediaServerLink): RunningMonitor => {
    const standby = onStandby.get(link.id);
    if (standby) {
      onStandby.delete(link.id);
      clearTimeout(standby.expiry);
      const previous = standby.running.link;
      if (previous.url === link.url && previous.apiKey === link.apiKey && previous.kind === link.kind) {
        standby.running.link = link;
        standby.running.onSessions = forward(link);
        standby.running.monitor.takeOver();
        logger.info({ server: link.name }, 'activity monitor taken over from standby');
        return standby.running;
      }
      void standby.running.stop();
    }
    return startMonitor(link);
  };

  const startMonitor = (link: MediaServerLink): RunningMonitor => {
    const client = createMediaServerClient({ kind: link.kind, url: link.url, apiKey: link.apiKey, logger, ...POLL_CLIENT });
    const monitor = new ServerMonitor({
      db: runtime.db,
      bus: runtime.bus,
      logger,
      settings: runtime.services.settings,
      metrics,
      server: { id: link.id, name: link.name, kind: link.kind },
      client,
      onSessions: (sessions) => {
        if (running) handle.onSessions?.(sessions);
      },
    });
    let running = true;
    let wake: (() => void) | undefined;
    const loop = (async () => {
      while (running) {
        const pollStartedAt = Date.now();
        const result = await monitor.pollOnce().catch((error: unknown) => {
          logger.error({ err: error, server: link.name }, 'activity monitor poll failed');
          return { ok: false, playing: false, sessions: undefined };
        });
        if (!running) break;
        // A failed settings read (database away) must not end the loop: poll at the default intervals meanwhile.
        const intervals = await runtime.services.settings.get('ACTIVITY_MONITOR_INTERVALS').catch((error: unknown) => {
          runtime.metrics.backgroundErrors.inc({ source: 'activity-monitor' });
          logger.warn({ err: (error as Error).message }, 'activity monitor: could not read its intervals; using the defaults');
          return settingDefaults.ACTIVITY_MONITOR_INTERVALS;
        });
        // The interval runs from the start of one poll to the start of the next, so a slow /Sessions answer
        // does not stretch the cadence; a poll longer than the interval is followed at once, never overlapped.
        // A link's declared intervals (MediaStatsServer spec.activityMonitor) win over the installation's.
        const own = declaredIntervals(monitors.get(link.id)?.link.settings ?? link.settings, intervals);
        const interval = result.playing ? own.activeSessionsInterval : own.idleInterval;
        const delay = Math.max(0, interval - (Date.now() - pollStartedAt));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    })();
    logger.info({ server: link.name, kind: link.kind }, 'activity monitor started');
    const handle: RunningMonitor = {
      link,
      monitor,
      onSessions: forward(link),
      async stop() {
        running = false;
        wake?.();
        await loop;
      },
    };
    return handle;
  };

  const unreadable = new Map<string, string>();
  const refreshServers = async () => {
    // Suspended links (e.g. a MediaStatsServer with suspend: true) are not monitored, nor links whose stored key
    // cannot be read (said once per link and reason, until the key is entered again).
    const listed = await runtime.services.mediaServers.list();
    for (const link of listed) {
      if (link.apiKeyError === null) unreadable.delete(link.id);
      else if (unreadable.get(link.id) !== link.apiKeyError) {
        unreadable.set(link.id, link.apiKeyError);
        logger.error({ server: link.name }, `activity monitor: ${link.apiKeyError}`);
      }
    }
    const links = listed.filter((link) => !link.suspended && link.apiKeyError === null);
    const current = new Map(links.map((link) => [link.id, link]));
    for (const [id, running] of monitors) {
      const link = current.get(id);
      // A removed server, or a changed address or key: restart its monitor (its live state is in the database).
      if (!link || link.url !== running.link.url || link.apiKey !== running.link.apiKey || link.kind !== running.link.kind) {
        monitors.delete(id);
        payloads.delete(id);
        await running.stop();
      } else {
        running.link = link;
      }
    }
    for (const link of links) if (!monitors.has(link.id) && !stopped) monitors.set(link.id, monitorOf(link));
  };

  await refreshServers().catch((error: unknown) => logger.error({ err: error }, 'activity monitor: could not list media servers'));
  const refresher = setInterval(() => {
    void refreshServers().catch((error: unknown) => logger.error({ err: error }, 'activity monitor: could not list media servers'));
  }, SERVER_LIST_REFRESH_MS);

  return async () => {
    stopped = true;
    clearInterval(refresher);
    const all = [...monitors.values()];
    monitors.clear();
    payloads.clear();
    // Leadership lost (or shutdown, which closes the runtime and so stops the standbys): keep observing.
    for (const running of all) {
      running.onSessions = undefined;
      running.monitor.observeOnly();
      const expiry = setTimeout(() => {
        if (onStandby.get(running.link.id)?.running !== running) return;
        onStandby.delete(running.link.id);
        void running.stop();
      }, STANDBY_MAX_MS);
      expiry.unref();
      onStandby.set(running.link.id, { running, expiry });
    }
    logger.info('activity monitor stopped; its monitors observe on standby');
  };
}
