// The Playback Reporting custom-query endpoint: real SQL, `colums`, string cells, errors as 200 + message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from './index.js';
import { Client, start } from './testing.test-helpers.js';

type Answer = { colums: string[]; results: string[][]; message: string };

let sim: RunningSimulator;
let api: Client;
let userId: string;
const q = async (sql: string, replace = false) =>
  api.post<Answer>('/user_usage_stats/submit_custom_query', { CustomQueryString: sql, ReplaceUserId: replace });

beforeAll(async () => {
  sim = await start();
  api = new Client(sim);
  userId = sim.control.users()[0]!.id;
  const [m1, m2] = sim.control.itemIds('Movie', 2) as [string, string];
  const ep = sim.control.itemIds('Episode', 1)[0]!;
  for (const [itemId, secs] of [
    [m1, 61],
    [m2, 30],
    [ep, 45],
  ] as const) {
    const p = sim.control.startPlay({ userId, itemId, client: 'jellyfin-web', method: 'DirectPlay' });
    sim.control.advance(secs * 1000);
    sim.control.stop(p.playId);
  }
});
afterAll(async () => sim.stop());

describe('submit_custom_query', () => {
  it('returns rows with every cell as a string', async () => {
    const r = await q('SELECT rowid, ItemType, PlayDuration, PlayDuration * 1.5 AS x FROM PlaybackActivity ORDER BY rowid');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      colums: ['rowid', 'ItemType', 'PlayDuration', 'x'],
      results: [
        ['1', 'Movie', '61', '91.5'],
        ['2', 'Movie', '30', '45'],
        ['3', 'Episode', '45', '67.5'],
      ],
      message: '',
    });
  });

  it('incremental sync by rowid works', async () => {
    const r = await q('SELECT rowid, * FROM PlaybackActivity WHERE rowid > 2 ORDER BY rowid');
    expect(r.json.results.length).toBe(1);
    expect(r.json.colums.slice(0, 3)).toEqual(['rowid', 'DateCreated', 'UserId']);
    expect(r.json.results[0]?.[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,7})?$/);
  });

  it('episode names follow "<Series> - sNNeNN - <Episode>"', async () => {
    const r = await q("SELECT ItemName FROM PlaybackActivity WHERE ItemType = 'Episode'");
    expect(r.json.results[0]?.[0]).toMatch(/^.+ - s\d\de\d\d - .+$/);
  });

  it('ReplaceUserId renames the UserId column and maps ids to names', async () => {
    const r = await q('SELECT UserId, COUNT(*) FROM PlaybackActivity GROUP BY UserId', true);
    expect(r.json.colums).toEqual(['UserName', 'COUNT(*)']);
    expect(r.json.results).toEqual([[sim.control.users()[0]!.name, '3']]);
  });

  it('SQL errors are HTTP 200 with a message and empty columns', async () => {
    const r = await q('SELECT nope FROM nowhere');
    expect(r.status).toBe(200);
    expect(r.json.colums).toEqual([]);
    expect(r.json.results).toEqual([]);
    expect(r.json.message).toMatch(/^Error Running Query<\/br>.*no such table: nowhere/);
  });

  it('statements without rows report the affected row count', async () => {
    const r = await q("UPDATE PlaybackActivity SET ClientName = 'x' WHERE rowid = 999");
    expect(r.json).toEqual({ colums: [], results: [], message: 'Query executed, no data returned.</br>Number of rows effected : 0' });
  });

  it('404 when the plugin is disabled', async () => {
    sim.control.setPluginEnabled(false);
    const r = await q('SELECT 1');
    expect(r.status).toBe(404);
    const plugins = await api.get<{ Name: string; Status: string }[]>('/Plugins');
    expect(plugins.json.find((p) => p.Name === 'Playback Reporting')?.Status).toBe('Disabled');
    sim.control.setPluginEnabled(true);
    expect((await q('SELECT 1')).json.results).toEqual([['1']]);
  });
});
