/** The poll intervals of the activity monitor, in milliseconds. */
export interface MonitorIntervals {
  activeSessionsInterval: number;
  idleInterval: number;
}

/**
 * A link's own poll intervals (a MediaStatsServer's spec.activityMonitor, in seconds, stored in the link's
 * settings) win over the installation's (Settings › Activity monitor); each one declared separately.
 */
export function declaredIntervals(settings: Record<string, unknown> | undefined, installation: MonitorIntervals): MonitorIntervals {
  const declared = settings?.activityMonitor as { activeIntervalSeconds?: unknown; idleIntervalSeconds?: unknown } | null | undefined;
  const seconds = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value * 1000 : undefined);
  return {
    activeSessionsInterval: seconds(declared?.activeIntervalSeconds) ?? installation.activeSessionsInterval,
    idleInterval: seconds(declared?.idleIntervalSeconds) ?? installation.idleInterval,
  };
}
