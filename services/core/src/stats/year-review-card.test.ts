import { describe, expect, it } from 'vitest';
import type { YearReviewAnswer } from '@reelstat/contract';
import { durationText, yearReviewPng, yearReviewSvg } from './year-review-card.js';

const review: YearReviewAnswer = {
  Year: 2025,
  TimeZone: 'UTC',
  UserId: 'u1',
  UserName: 'Tom & <Jerry>',
  Plays: 12,
  WatchSeconds: 36_000,
  TopItems: [{ Id: 'm1', Name: 'A "quoted" & very long title that goes on and on', Type: 'Movie', Plays: 3, WatchSeconds: 9000 }],
  TopSeries: [],
  TopGenres: [{ Genre: 'Drama', Plays: 4, WatchSeconds: 8000 }],
  BusiestDay: { Date: '2025-03-01', Plays: 3, WatchSeconds: 12_000 },
  BusiestHour: { Hour: 21, Plays: 5, WatchSeconds: 9000 },
  LongestBinge: null,
  FirstPlay: null,
  LastPlay: null,
  Server: { Plays: 40, WatchSeconds: 144_000, ActiveUsers: 4, AveragePlaysPerUser: 10, AverageWatchSecondsPerUser: 36_000 },
};

describe('year in review card', () => {
  it('escapes names, clips long titles and compares with the average viewer', () => {
    const svg = yearReviewSvg(review, 'Home');
    expect(svg).toContain('Tom &#38; &#60;Jerry&#62;');
    expect(svg).not.toContain('<Jerry>');
    expect(svg).toContain('1. A &#34;quoted&#34; &#38; very lon…');
    expect(svg).toContain('100% of the average viewer&#39;s time (10 h)');
    expect(svg).toContain('Busiest day 2025-03-01 · busiest hour 21:00');
  });

  it('rasterises to a 1200×630 PNG', () => {
    const png = yearReviewPng(review, 'Home');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('writes minutes under an hour, hours with one decimal under ten', () => {
    expect([durationText(20), durationText(1800), durationText(5400), durationText(36_000), durationText(4_000_000)]).toEqual([
      '0 min',
      '30 min',
      '1.5 h',
      '10 h',
      '1,111 h',
    ]);
  });
});
