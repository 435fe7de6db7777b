// The play state machine on hand-written observations: report-clock accounting, how ends are timed, the
// resume window, exclusions and the write order.
import { describe, expect, it } from 'vitest';
import { reconcile, type LivePlay, type NewPlayInfo, type RecordingRules } from './play-state-machine.js';
import type { PlaySnapshot, SessionSample } from './session-sample.js';

const T0 = Date.UTC(2026, 0, 1, 20);
const TICKS = 10_000_000;
const snapshot: PlaySnapshot = {
  userName: 'alice',
  itemName: 'Heat',
  itemType: 'Movie',
  extraType: null,
  seriesId: null,
  seriesName: null,
  seasonId: null,
  seasonNumber: null,
  episodeNumber: null,
  runTimeTicks: 3600 * TICKS,
  client: 'Jellyfin Web',
  deviceName: 'Firefox',
  deviceId: 'dev-1',
  applicationVersion: '10.11.11',
  remoteEndPoint: '192.168.1.2',
  playMethod: 'DirectPlay',
  reportedPlayMethod: 'DirectPlay',
  transcodingInfo: null,
  streamDetails: null,
  streamBitrate: null,
  libraryId: null,
};
const rules: RecordingRules = { minimumPlaySeconds: 30, mergeWindowMs: 0 };

function sample(at: number, position: number, overrides: Partial<SessionSample> = {}): SessionSample {
  return {
    sessionId: 's1',
    userId: 'u1',
    itemId: 'm1',
    reportAtMs: T0 + at * 1000,
    positionTicks: position * TICKS,
    isPaused: false,
    snapshot,
    ...overrides,
  };
}

/** Feeds observations in order: [poll time (s), samples, idle sessions with their report time (s)]. */
function replay(steps: Array<[number, SessionSample[], Array<[string, number]>?]>, r: RecordingRules = rules, info?: NewPlayInfo) {
  let plays: LivePlay[] = [];
  const finals = [];
  const writes: string[][] = [];
  for (const [at, samples, idle = []] of steps) {
    const newPlays = new Map(samples.map((s) => [`${s.sessionId}\u0000${s.itemId}`, info ?? { libraryId: 'lib', excluded: null }]));
    const t = reconcile(
      plays,
      { nowMs: T0 + at * 1000, samples, idleSessions: new Map(idle.map(([id, s]) => [id, T0 + s * 1000])), newPlays },
      r,
    );
    plays = t.plays;
    finals.push(...t.finals);
    writes.push(t.upserts.map((p) => `${p.itemId}:${p.state}`));
  }
  return { plays, finals, writes };
}

describe('reconcile', () => {
  it('credits the time between two reports to the state of the earlier one, whatever the poll times', () => {
    const { finals } = replay(
      [
        [1, [sample(0, 0)]],
        [7, [sample(0, 0)]],
        [11, [sample(10, 10)]],
        [13, [sample(12, 12, { isPaused: true })]], // paused at 12 s
        [29, [sample(22, 12, { isPaused: true })]],
        [31, [sample(30, 12)]], // resumed at 30 s
        [45, [sample(40, 22)]],
        [47, [], [['s1', 44]]], // stopped at 44 s (a report)
      ],
      { minimumPlaySeconds: 0, mergeWindowMs: 0 },
    );
    expect(finals).toHaveLength(1);
    expect(finals[0]!.dropped).toBeNull();
    expect(finals[0]!.play).toMatchObject({
      playedSeconds: 26,
      pausedSeconds: 18,
      startedAtMs: T0,
      endedAtMs: T0 + 44_000,
      positionTicks: 26 * TICKS,
    });
  });

  it('ends a vanished session halfway between the polls, and never more than one report interval after its last report', () => {
    const vanished = replay([
      [1, [sample(0, 0)]],
      [40, [sample(40, 40)]],
      [44, []],
    ]);
    expect(vanished.finals[0]!.play.playedSeconds).toBe(42);
    const quiet = replay([
      [1, [sample(0, 0)]],
      [40, [sample(40, 40)]],
      [400, [sample(40, 40)]], // frozen: the client went quiet
      [600, [], [['s1', 600]]], // the server auto-stops it minutes later
    ]);
    expect(quiet.finals[0]!.play.playedSeconds).toBe(50);
  });

  it('ends the previous play when the session shows another item, and writes the ended one first', () => {
    const { finals } = replay(
      [
        [1, [sample(0, 3590)]],
        [12, [sample(10, 3600, { itemId: 'm2', positionTicks: 0 })]],
        [20, [], [['s1', 20]]],
      ],
      { minimumPlaySeconds: 5, mergeWindowMs: 0 },
    );
    expect(finals.map((f) => [f.play.itemId, f.play.playedSeconds, f.play.completed])).toEqual([
      ['m1', 10, true],
      ['m2', 10, false],
    ]);
    // A play stopped part-way stays (resumable) while the session's next play starts: ended row first.
    const partWay = replay(
      [
        [1, [sample(0, 100)]],
        [12, [sample(10, 0, { itemId: 'm2' })]],
      ],
      { minimumPlaySeconds: 5, mergeWindowMs: 600_000 },
    );
    expect(partWay.writes[1]).toEqual(['m1:ended', 'm2:playing']);
  });

  it('keeps a play stopped part-way for the window and merges a resume by the same user on another session', () => {
    const window = { minimumPlaySeconds: 30, mergeWindowMs: 600_000 };
    const { finals } = replay(
      [
        [1, [sample(0, 100)]],
        [25, [sample(20, 120)]],
        [45, [sample(40, 140)]],
        [61, [], [['s1', 50]]],
        [200, []],
        [300, [sample(300, 160, { sessionId: 's2' })]],
        [321, [sample(320, 180, { sessionId: 's2' })]],
        [341, [], [['s2', 330]]],
        [900, []],
        [1000, []],
      ],
      window,
    );
    expect(finals).toHaveLength(1);
    expect(finals[0]!.play).toMatchObject({ playedSeconds: 80, segments: 2, startedAtMs: T0, endedAtMs: T0 + 330_000, sessionId: 's2' });
  });

  it('drops excluded and too-short plays', () => {
    const excluded = replay(
      [
        [1, [sample(0, 0)]],
        [100, [], [['s1', 100]]],
      ],
      rules,
      { libraryId: null, excluded: 'untracked user' },
    );
    expect(excluded.finals.map((f) => f.dropped)).toEqual(['untracked user']);
    const short = replay([
      [1, [sample(0, 0)]],
      [11, [sample(10, 10)]],
      [20, [], [['s1', 20]]],
    ]);
    expect(short.finals.map((f) => [f.dropped, f.play.playedSeconds])).toEqual([['shorter than the minimum', 20]]);
  });
});
