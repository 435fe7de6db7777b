// Why a history row matched no play of the simulator's ground truth (bench:activity prints these reasons, so a
// non-zero `unmatched` says whether a play was lost or mis-timed, or the run only observed it late).
import type { PlayRecord } from '@reelstat/jellyfin-sim';
import { mergeResumedPlays, type RecordedPlay } from '../../services/core/src/activity/test-support/replay-accuracy.js';

export interface BenchRow extends RecordedPlay {
  device_id: string | null;
}

export interface UnmatchedExample {
  reason: string;
  deviceId: string | null;
  /** Row start minus the true start of the (merged) play, seconds. */
  startErrorSeconds: number | null;
  /** Row played seconds minus the true played seconds, seconds. */
  playedErrorSeconds: number | null;
  /** From the true start to the first `sessions` event that showed the play, seconds. */
  firstShownAfterSeconds: number | null;
}

export interface UnmatchedReasons {
  unmatched: number;
  byReason: Record<string, number>;
  examples: UnmatchedExample[];
}

const EXAMPLES = 8;
const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Rows whose start is more than `toleranceSeconds` from every true play of the same user and item (what
 * compareWithTruth counts as unmatched), each explained by the true play of the row's own device (every play of
 * the benchmark has a device of its own): a late first sighting (the start is the first report Reelstat saw),
 * a resume the truth merged and Reelstat did not (or the reverse), or no such play at all.
 * `firstShownAt` is when the browser's `sessions` view first showed each play (by session and item).
 */
export function unmatchedReasons(
  truth: readonly PlayRecord[],
  rows: readonly BenchRow[],
  options: { toleranceSeconds: number; mergeWindowMs: number; reportIntervalSeconds: number; firstShownAt: ReadonlyMap<string, number> },
): UnmatchedReasons {
  const parts = truth.filter((p) => !p.extraType && !p.active);
  const merged = mergeResumedPlays(parts, options.mergeWindowMs);
  const mergedByViewing = new Map<string, PlayRecord[]>();
  for (const play of merged) {
    const key = `${play.userId}\u0000${play.itemId}`;
    mergedByViewing.set(key, [...(mergedByViewing.get(key) ?? []), play]);
  }
  const partByDevice = new Map(parts.map((p) => [`${p.deviceId}\u0000${p.itemId}`, p]));
  const byReason: Record<string, number> = {};
  const examples: UnmatchedExample[] = [];
  let unmatched = 0;
  for (const row of rows) {
    const candidates = mergedByViewing.get(`${row.user_id}\u0000${row.item_id}`) ?? [];
    const startMs = row.started_at.getTime();
    if (candidates.some((p) => Math.abs(startMs - p.startedAtMs) / 1000 <= options.toleranceSeconds)) continue;
    unmatched++;
    const part = row.device_id ? partByDevice.get(`${row.device_id}\u0000${row.item_id}`) : undefined;
    // The merged play this part belongs to: the latest one of its viewing that started no later than it.
    const owner = part
      ? candidates.filter((p) => p.startedAtMs <= part.startedAtMs).sort((a, b) => b.startedAtMs - a.startedAtMs)[0]
      : undefined;
    const shownAt = part ? options.firstShownAt.get(`${part.sessionId}\u0000${part.itemId}`) : undefined;
    const example: UnmatchedExample = {
      reason: '',
      deviceId: row.device_id,
      startErrorSeconds: owner ? round((startMs - owner.startedAtMs) / 1000) : null,
      playedErrorSeconds: owner ? round(row.played_seconds - owner.secondsUnpaused) : null,
      firstShownAfterSeconds: part && shownAt !== undefined ? round((shownAt - part.startedAtMs) / 1000) : null,
    };
    if (!part || !owner) example.reason = 'no true play of this device and item';
    else if (owner.playId !== part.playId && Math.abs(startMs - part.startedAtMs) / 1000 <= options.toleranceSeconds)
      example.reason = 'a resume the truth merges into an earlier play, recorded as a play of its own';
    else if (startMs - part.startedAtMs > options.reportIntervalSeconds * 1000)
      example.reason = 'first observed more than one report interval after its start (the row starts at a later report)';
    else example.reason = 'start off by more than the tolerance for another reason';
    byReason[example.reason] = (byReason[example.reason] ?? 0) + 1;
    if (examples.length < EXAMPLES) examples.push(example);
  }
  return { unmatched, byReason, examples };
}

export interface LostReasons {
  lost: number;
  byReason: Record<string, number>;
  examples: Array<{ reason: string; deviceId: string; playedSeconds: number; endedBeforeReadSeconds: number | null }>;
}

/**
 * True plays (clearly above the minimum) that no row matched, as compareWithTruth counts them `lost`, each told
 * apart by whether a row of its own device exists at all (a row never written) or starts elsewhere (mis-timed).
 */
export function lostReasons(
  truth: readonly PlayRecord[],
  rows: readonly BenchRow[],
  options: { toleranceSeconds: number; mergeWindowMs: number; minimumPlaySeconds: number; readAtMs: number },
): LostReasons {
  const tol = options.toleranceSeconds;
  const merged = mergeResumedPlays(
    truth.filter((p) => !p.extraType && !p.active),
    options.mergeWindowMs,
  );
  const matched = new Set<string>();
  const byViewing = new Map<string, PlayRecord[]>();
  for (const play of merged) {
    const key = `${play.userId}\u0000${play.itemId}`;
    byViewing.set(key, [...(byViewing.get(key) ?? []), play]);
  }
  for (const row of rows) {
    const startMs = row.started_at.getTime();
    let best: PlayRecord | undefined;
    for (const play of byViewing.get(`${row.user_id}\u0000${row.item_id}`) ?? []) {
      const delta = Math.abs(startMs - play.startedAtMs);
      if (delta <= tol * 1000 && (!best || delta < Math.abs(startMs - best.startedAtMs))) best = play;
    }
    if (best) matched.add(best.playId);
  }
  const rowDevices = new Set(rows.map((row) => `${row.device_id}\u0000${row.item_id}`));
  const byReason: Record<string, number> = {};
  const examples: LostReasons['examples'] = [];
  let lost = 0;
  for (const play of merged) {
    if (matched.has(play.playId)) continue;
    if (Math.abs(play.secondsUnpaused - options.minimumPlaySeconds) <= tol || play.secondsUnpaused <= options.minimumPlaySeconds) continue;
    lost++;
    const reason = rowDevices.has(`${play.deviceId}\u0000${play.itemId}`)
      ? 'its device has a row, starting more than the tolerance away'
      : 'no row of its device';
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    if (examples.length < EXAMPLES)
      examples.push({
        reason,
        deviceId: play.deviceId,
        playedSeconds: round(play.secondsUnpaused),
        endedBeforeReadSeconds: play.endedAtMs === undefined ? null : round((options.readAtMs - play.endedAtMs) / 1000),
      });
  }
  return { lost, byReason, examples };
}
