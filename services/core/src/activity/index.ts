/** The activity monitor: live sessions, the play state machine and exactly-once play recording. */
export { startActivityMonitor, SESSIONS_UI_EVENT } from './activity-monitor.js';
export { ServerMonitor, toPlayToRecord, type ServerMonitorDeps, type PollResult } from './server-monitor.js';
export { ActivityMetrics } from './activity-metrics.js';
export { PLAYBACK_STARTED_CHANNEL, PLAYBACK_ENDED_CHANNEL, type PlaybackEvent } from './playback-events.js';
export { reconcile, playsToStart, REPORT_INTERVAL_MS, type LivePlay, type RecordingRules, type Transition } from './play-state-machine.js';
export { displayPlayMethod } from './play-method.js';
export { liveSessionsPayload } from './live-session-payload.js';
export { listUntrackedUsers, toggleUntrackedUser } from './untracked-users.js';
export { sampleSessions, type SessionSample, type PlaySnapshot } from './session-sample.js';
export { endSession, END_SESSION_HEADER, END_SESSION_MESSAGE_MS } from './end-session.js';
