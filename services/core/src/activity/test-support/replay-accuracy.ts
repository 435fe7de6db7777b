// Compares the history the activity monitor wrote with the simulator's ground truth (tests and the benchmark).
import type { PlayRecord } from '@reelstat/jellyfin-sim';

export interface RecordedPlay {
  user_id: string;
  item_id: string;
  started_at: Date;
  played_seconds: number;
}

export interface AccuracyReport {
  truthPlays: number;
  /** Truth plays that must be in the history (real viewing, clearly above the minimum). */
  expected: number;
  /** Truth plays within the tolerance of the minimum: recorded or not, both are right. */
  borderline: number;
  recorded: number;
  lost: number;
  duplicated: number;
  /** History rows that match no truth play at all. */
  unmatched: number;
  toleranceSeconds: number;
  withinTolerance: number;
  maxErrorSeconds: number;
  meanErrorSeconds: number;
  p95ErrorSeconds: number;
}

/**
 * The truth as Reelstat should record it with a merge window: a play that the same user resumes on the same
 * item within `mergeWindowMs` of its end (and that had not reached 90 % of the item) is one play with the seconds
 * of both parts. With a window of 0 every truth play stands alone.
 */
export function mergeResumedPlays(truth: readonly PlayRecord[], mergeWindowMs: number): PlayRecord[] {
  const merged: PlayRecord[] = [];
  const lastByViewing = new Map<string, PlayRecord>();
  for (const play of [...truth].sort((a, b) => a.startedAtMs - b.startedAtMs)) {
    const key = `${play.userId}\u0000${play.itemId}`;
    const last = lastByViewing.get(key);
    const resumable =
      last !== undefined &&
      mergeWindowMs > 0 &&
      last.endedAtMs !== undefined &&
      last.endedAtMs <= play.startedAtMs &&
      play.startedAtMs - last.endedAtMs <= mergeWindowMs &&
      !(last.runTimeTicks && (last.endPositionTicks ?? 0) >= last.runTimeTicks * 0.9);
    if (resumable) {
      last.secondsUnpaused += play.secondsUnpaused;
      last.endedAtMs = play.endedAtMs;
      last.endPositionTicks = play.endPositionTicks;
      continue;
    }
    const copy = { ...play };
    merged.push(copy);
    lastByViewing.set(key, copy);
  }
  return merged;
}

/**
 * Matches each history row to the truth play of the same user and item that started at the same time (within
 * the tolerance); counts lost plays (expected, no row), duplicates (a second row for one play) and the
 * played-seconds error of every match.
 */
export function compareWithTruth(
  truth: readonly PlayRecord[],
  rows: readonly RecordedPlay[],
  options: { minimumPlaySeconds: number; toleranceSeconds: number; mergeWindowMs?: number },
): AccuracyReport {
  const tol = options.toleranceSeconds;
  const real = mergeResumedPlays(
    truth.filter((p) => !p.extraType && !p.active),
    options.mergeWindowMs ?? 0,
  );
  const candidates = new Map<string, PlayRecord[]>();
  for (const play of real) {
    const key = `${play.userId}\u0000${play.itemId}`;
    const list = candidates.get(key) ?? [];
    list.push(play);
    candidates.set(key, list);
  }
  const matched = new Map<string, number>();
  const errors: number[] = [];
  let unmatched = 0;
  for (const row of rows) {
    const list = candidates.get(`${row.user_id}\u0000${row.item_id}`) ?? [];
    let best: PlayRecord | undefined;
    for (const play of list) {
      const delta = Math.abs(row.started_at.getTime() - play.startedAtMs) / 1000;
      if (delta <= tol && (!best || delta < Math.abs(row.started_at.getTime() - best.startedAtMs) / 1000)) best = play;
    }
    if (!best) {
      unmatched++;
      continue;
    }
    matched.set(best.playId, (matched.get(best.playId) ?? 0) + 1);
    errors.push(Math.abs(row.played_seconds - best.secondsUnpaused));
  }
  let expected = 0;
  let borderline = 0;
  let lost = 0;
  for (const play of real) {
    const nearMinimum = Math.abs(play.secondsUnpaused - options.minimumPlaySeconds) <= tol;
    if (nearMinimum) borderline++;
    else if (play.secondsUnpaused > options.minimumPlaySeconds) {
      expected++;
      if (!matched.has(play.playId)) lost++;
    }
  }
  const duplicated = [...matched.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const sorted = [...errors].sort((a, b) => a - b);
  return {
    truthPlays: real.length,
    expected,
    borderline,
    recorded: rows.length,
    lost,
    duplicated,
    unmatched,
    toleranceSeconds: tol,
    withinTolerance: errors.filter((e) => e <= tol).length,
    maxErrorSeconds: round(sorted.at(-1) ?? 0),
    meanErrorSeconds: round(errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length)),
    p95ErrorSeconds: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
