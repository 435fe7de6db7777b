// What every fault scenario checks at the end: each simulated play is in the history exactly once (none lost,
// none doubled), with its true start and, where Reelstat could see its end, its true duration.
import pg from 'pg';
import { expect } from 'vitest';
import type { RunningSimulator } from '@reelstat/jellyfin-sim';
import { DURATION_TOLERANCE_SECONDS, sleep, until } from '../test-support/fault-harness.js';

export interface HistoryRow {
  play_key: string;
  item_id: string;
  played_seconds: number;
  started_at: Date;
}

export type Query = <Row>(sql: string) => Promise<Row[]>;

/** A query function over a PostgreSQL URL (one short connection per query: the server may restart between). */
export function queryUrl(url: string): Query {
  return async <Row>(sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Row[];
    } finally {
      await client.end();
    }
  };
}

type Play = { playId: string };

/**
 * Waits until every play has a history row, gives a doubled write time to show up, then checks each play
 * was recorded once with its true start. `exact` plays must also have their true duration (one poll plus
 * one progress report); `seenUntil` plays ended while Reelstat could not see them: their duration may be
 * short of the truth, but never above it and never below what Reelstat had seen before the fault.
 */
export async function expectRecordedOnce(
  query: Query,
  sim: RunningSimulator,
  exact: Play[],
  seenUntil: Array<{ play: Play; seenSeconds: number }> = [],
): Promise<HistoryRow[]> {
  const all = [...exact, ...seenUntil.map((s) => s.play)];
  const truths = all.map((play) => sim.control.play(play.playId)!);
  const rowsOf = (rows: HistoryRow[], truth: (typeof truths)[number]) =>
    rows.filter((r) => r.item_id === truth.itemId && r.started_at.getTime() === truth.startedAtMs);
  const select = () => query<HistoryRow>('SELECT play_key, item_id, played_seconds, started_at FROM playback_history');
  await until(
    async () => {
      const rows = await select();
      return truths.every((truth) => rowsOf(rows, truth).length >= 1) ? true : undefined;
    },
    `history rows for ${all.length} plays`,
    60_000,
  );
  // Give a doubled write every chance to show up (the monitor polls every 500 ms here).
  await sleep(2000);
  const rows = await select();
  for (const [index, play] of all.entries()) {
    const truth = truths[index]!;
    const found = rowsOf(rows, truth);
    expect(found, `history rows of the play of ${truth.itemId} started at ${truth.startedAtMs}`).toHaveLength(1);
    const recorded = found[0]!.played_seconds;
    const seen = seenUntil.find((s) => s.play === play);
    if (!seen) {
      expect(Math.abs(recorded - truth.secondsUnpaused), `duration of ${truth.itemId}`).toBeLessThanOrEqual(DURATION_TOLERANCE_SECONDS);
    } else {
      expect(recorded, `duration of ${truth.itemId}`).toBeLessThanOrEqual(truth.secondsUnpaused + DURATION_TOLERANCE_SECONDS);
      expect(recorded, `duration of ${truth.itemId}`).toBeGreaterThanOrEqual(seen.seenSeconds - DURATION_TOLERANCE_SECONDS);
    }
  }
  return rows;
}

/** Waits until the database holds `count` live plays. */
export async function waitForLivePlays(query: Query, count: number): Promise<void> {
  await until(async () => {
    const [row] = await query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
    return row?.n === count ? true : undefined;
  }, `${count} live plays in the database`);
}
