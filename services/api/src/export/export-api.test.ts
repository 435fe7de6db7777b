import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, recordPlays, HISTORY_CSV_COLUMNS, type Database, type PlayToRecord } from '@reelstat/core';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { startApiHarness, type ApiHarness, createAdmin, insertUnreachableServer } from '@reelstat/server/test-support/api-harness.js';

/** An RFC 4180 reader, written here so that the test does not trust the writer under test. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  expect(cell, 'the file ends with a line end').toBe('');
  return rows;
}

interface Play {
  Id: number;
  UserName: string;
  Client: string | null;
  PlaybackDuration: number;
  ActivityDateInserted: string;
  results: Play[];
}

/**
 * CSV exports on a small history with awkward names (a comma, quotes, a line feed, a formula, non-ASCII): each
 * export has the plays of the history view with the same query, in the same order, one play a line.
 */
describe('CSV export API', () => {
  let harness: ApiHarness;
  let db: Database;
  let token: string;
  const serverId = randomUUID();
  const now = Date.now();

  const get = (path: string) => harness.call('GET', path, { token });
  async function csv(path: string): Promise<{ rows: string[][]; headers: Headers; text: string }> {
    const answer = await get(path);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const text = answer.body as string;
    return { rows: parseCsv(text.replace(/^\uFEFF/, '')), headers: answer.headers, text };
  }
  /** Every play of the history view for this query, unfolded, page after page. */
  async function viewPlays(path: string, query: string, body?: unknown): Promise<Play[]> {
    const plays: Play[] = [];
    for (let page = 1; ; page++) {
      const url = `${path}?size=10&page=${page}${query}`;
      const answer = body ? await harness.call('POST', url, { token, body }) : await get(url);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const paged = answer.body as { results: Play[]; pages: number };
      for (const row of paged.results) plays.push(...(row.results.length > 0 ? row.results : [row]));
      if (page >= paged.pages) return plays;
    }
  }
  const column = (name: (typeof HISTORY_CSV_COLUMNS)[number]) => HISTORY_CSV_COLUMNS.indexOf(name);

  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
    db = openDatabase(harness.database.url, testLogger);
    await insertUnreachableServer(db, serverId);
    await db.query(
      `INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, 'u1', 'Zoë, "the boss"', true), ($1, 'u2', '=cmd|calc', true),
         ($1, 'u3', 'Line
Break', false)`,
      [serverId],
    );
    const users = [
      ['u1', 'Zoë, "the boss"'],
      ['u2', '=cmd|calc'],
      ['u3', 'Line\nBreak'],
    ] as const;
    const clients = ['Jellyfin Web', '@Android', 'Roku, TV'];
    const methods: PlayToRecord['playMethod'][] = ['DirectPlay', 'Transcode', 'DirectStream'];
    // 27 plays: enough for three pages of ten, with repeated user+item neighbours that the view folds.
    const plays: PlayToRecord[] = Array.from({ length: 27 }, (_, i) => ({
      serverId,
      playKey: `p${i}`,
      source: 'monitor',
      userId: users[i % 3]![0],
      userName: users[i % 3]![1],
      itemId: `m${Math.floor(i / 4)}`,
      itemName: i % 5 === 0 ? '+Plus, the "movie"' : `Movie ${Math.floor(i / 4)}`,
      itemType: 'Movie',
      libraryId: i % 2 === 0 ? 'movies' : 'other',
      client: clients[i % 3],
      deviceName: 'device',
      remoteEndPoint: '203.0.113.7',
      playMethod: methods[i % 3]!,
      startedAt: new Date(now - (i % 7) * 3_600_000 - i * 1000),
      playedSeconds: 100 + ((i * 37) % 11) * 10,
    }));
    await recordPlays(db, plays);
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await harness.stop();
  });

  const views: Array<[string, string, string, unknown?]> = [
    ['newest first (the default)', '', ''],
    ['sorted by user name, ascending', '&sort=UserName&desc=false', '&sort=UserName&desc=false'],
    ['sorted by playback duration', '&sort=PlaybackDuration', '&sort=PlaybackDuration'],
    ['searched', '&search=android', '&search=android'],
    [
      'filtered by play method and library',
      `&filters=${encodeURIComponent(
        JSON.stringify([
          { field: 'PlayMethod', value: ['Transcode', 'DirectPlay'] },
          { field: 'ParentId', value: 'movies' },
        ]),
      )}`,
      `&filters=${encodeURIComponent(
        JSON.stringify([
          { field: 'PlayMethod', value: ['Transcode', 'DirectPlay'] },
          { field: 'ParentId', value: 'movies' },
        ]),
      )}`,
    ],
  ];
  it.each(views)('history %s: the same plays in the same order', async (_name, viewQuery, exportQuery) => {
    const expected = await viewPlays('/api/getHistory', viewQuery);
    expect(expected.length).toBeGreaterThan(0);
    const { rows } = await csv(`/api/exportHistory?x=1${exportQuery}`);
    expect(rows[0]).toEqual([...HISTORY_CSV_COLUMNS]);
    const lines = rows.slice(1);
    expect(lines.map((line) => Number(line[column('Id')]))).toEqual(expected.map((play) => play.Id));
    expect(lines.map((line) => Number(line[column('PlaybackDuration')]))).toEqual(expected.map((play) => play.PlaybackDuration));
    expect(lines.map((line) => line[column('Date')])).toEqual(expected.map((play) => play.ActivityDateInserted));
    // Text comes back as the view shows it, apart from the apostrophe that disarms a formula.
    expect(lines.map((line) => line[column('UserName')]!.replace(/^'(?=[=+\-@])/, ''))).toEqual(expected.map((play) => play.UserName));
    expect(lines.map((line) => line[column('Client')]!.replace(/^'(?=[=+\-@])/, ''))).toEqual(expected.map((play) => play.Client));
  });

  it("a user's history, as getUserHistory shows it", async () => {
    const expected = await viewPlays('/api/getUserHistory', '&sort=Client&desc=false', { userid: 'u3' });
    const { rows, headers } = await csv('/api/exportHistory?userId=u3&sort=Client&desc=false');
    expect(rows.slice(1).map((line) => Number(line[0]))).toEqual(expected.map((play) => play.Id));
    expect(rows.slice(1).every((line) => line[column('UserName')] === 'Line\nBreak')).toBe(true);
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename="reelstat-history-user-u3-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });

  it('escapes commas, quotes, line feeds and formulas, and adds the byte order mark on request', async () => {
    const { text } = await csv('/api/exportHistory?bom=true&search=boss');
    // Read as bytes: a text decoder drops the byte order mark.
    const raw = await fetch(`${harness.url}/api/exportHistory?bom=true&search=boss`, { headers: { authorization: `Bearer ${token}` } });
    expect([...new Uint8Array(await raw.arrayBuffer()).subarray(0, 5)]).toEqual([0xef, 0xbb, 0xbf, 0x49, 0x64]);
    expect(text).toContain(',"Zoë, ""the boss""",u1,');
    const formulas = await csv('/api/exportHistory?userId=u2');
    expect(formulas.text).toContain(",'=cmd|calc,u2,");
    expect(formulas.text).toContain(",'@Android,");
    expect(formulas.text).toContain(`,"'+Plus, the ""movie""",`);
    const plain = await fetch(`${harness.url}/api/exportHistory?userId=u2`, { headers: { authorization: `Bearer ${token}` } });
    expect([...new Uint8Array(await plain.arrayBuffer()).subarray(0, 2)]).toEqual([0x49, 0x64]);
  });

  it('answers bad input in the error shape, before any CSV', async () => {
    const both = await get('/api/exportHistory?userId=u1&itemId=m1');
    expect(both.status).toBe(400);
    expect((both.body as { message: string }).message).toMatch(/at most one of userId, libraryId, itemId/);
    const sort = await get('/api/exportHistory?sort=Nope');
    expect(sort.status).toBe(400);
    expect(((await get('/api/exportUsers?desc=maybe')).body as { message: string }).message).toMatch(/query\.desc/);
    expect((await harness.call('GET', '/api/exportHistory')).status).toBe(401);
  });

  it('saves an export through a single-use ticket: the same file, once, within its time, for its own account only', async () => {
    const viewQuery = '&sort=UserName&desc=false&search=android';
    const ticketFor = async (path: string) => {
      const answer = await harness.call('POST', path, { token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as { ticket: string; url: string; expiresInSeconds: number };
    };
    const issued = await ticketFor(`/api/exportHistory/ticket?x=1${viewQuery}`);
    expect(issued.expiresInSeconds).toBeLessThanOrEqual(60);
    expect(issued.url).toBe(`/api/download?ticket=${encodeURIComponent(issued.ticket)}`);
    // Followed without any credential (a browser navigating): the export the ticket was made for.
    const saved = await harness.call('GET', issued.url);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(saved.body).toBe((await csv(`/api/exportHistory?x=1${viewQuery}`)).text);
    // Used once: a second time is 401, as is a ticket nobody made.
    expect((await harness.call('GET', issued.url)).status).toBe(401);
    expect((await harness.call('GET', '/api/download?ticket=made-up')).status).toBe(401);
    // Expired: 401 (the clock is moved in the database instead of waiting a minute).
    const late = await ticketFor('/api/exportUsers/ticket?sort=UserName');
    await db.query(`UPDATE download_tickets SET expires_at = now() - interval '1 second'`);
    expect((await harness.call('GET', late.url)).status).toBe(401);
    // Sent with another account's credentials (an API key here): 403, and the ticket is spent.
    const created = await harness.call('POST', '/api/keys', { token, body: { name: 'other-account' } });
    const apiKey = (created.body as { key: string }).key;
    const theirs = await ticketFor('/api/exportUsers/ticket?sort=UserName');
    expect((await harness.call('GET', theirs.url, { apiKey })).status).toBe(403);
    expect((await harness.call('GET', theirs.url, { token })).status).toBe(401);
    // The same account's credentials are fine; a ticket's query is validated before it is made.
    const mine = await ticketFor('/api/exportUsers/ticket?sort=UserName');
    expect((await harness.call('GET', mine.url, { token })).status).toBe(200);
    expect((await harness.call('POST', '/api/exportUsers/ticket?sort=Nope', { token })).status).toBe(400);
    expect((await harness.call('POST', '/api/exportUsers/ticket?sort=UserName')).status).toBe(401);
  });

  it('exports the users table with its search and sort', async () => {
    const { rows } = await csv('/api/exportUsers?sort=TotalPlays&desc=true');
    expect(rows[0]![0]).toBe('UserId');
    // 27 plays over three users, 9 each: a tie keeps the order the server lists users in (by lower-case name).
    expect(rows.slice(1).map((line) => [line[0], line[6]])).toEqual([
      ['u2', '9'],
      ['u3', '9'],
      ['u1', '9'],
    ]);
    const searched = await csv('/api/exportUsers?search=line');
    expect(searched.rows.slice(1).map((line) => [line[1], line[3]])).toEqual([['Line\nBreak', 'false']]);
  });
});
