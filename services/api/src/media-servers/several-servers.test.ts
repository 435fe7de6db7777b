// Several media servers in one install: a Jellyfin and an Emby simulator linked at once. Every scoped call
// answers the selected server's data only, "all" sums them, calls without serverId answer for the default
// server (SPEC clients), bad ids get the API's error shape, and removing a server keeps its history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { openDatabase, recordPlays, type Database, type PlayToRecord } from '@reelstat/core';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { createAdmin, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';
import { waitFor } from '../../test/sync-harness.js';

interface ServerRow {
  Id: string;
  Name: string;
  Kind: string;
  IsDefault: boolean;
  ManagedBy: string;
}

describe('several media servers', () => {
  let jellyfin: RunningSimulator;
  let emby: RunningSimulator;
  let harness: ApiHarness;
  let db: Database;
  let token: string;
  let jellyfinId: string;
  let embyId: string;
  /** A movie and a user of each server, as the sync stored them. */
  const picked: Record<string, { movie: { id: string; name: string; library: string }; user: { id: string; name: string } }> = {};

  const call = (method: string, path: string, body?: unknown) => harness.call(method, path, { token, body });
  const ok = async <T>(promise: Promise<{ status: number; body: unknown }>, status = 200): Promise<T> => {
    const answer = await promise;
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    return answer.body as T;
  };

  beforeAll(async () => {
    [jellyfin, emby] = await Promise.all([
      startSimulator({ scale: 'tiny', seed: 11 }),
      startSimulator({ scale: 'tiny', seed: 12, flavor: 'emby' }),
    ]);
    harness = await startApiHarness({ ROLES: 'api,scheduler' });
    token = await createAdmin(harness);
    db = openDatabase(harness.database.url, testLogger);
    await ok(call('POST', '/auth/configSetup', { JF_HOST: jellyfin.url, JF_API_KEY: jellyfin.apiKey }));
  });
  afterAll(async () => {
    await db?.close();
    await harness?.stop();
    await Promise.all([jellyfin?.stop(), emby?.stop()]);
  });

  it('adds the Emby server next to the Jellyfin one after checking it; a bad key or the same server again saves nothing', async () => {
    const refused = await call('POST', '/api/mediaServers', { Url: emby.url, ApiKey: 'wrong-key' });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ status: 401, code: 'media_server_unauthorized' });
    const again = await call('POST', '/api/mediaServers', { Url: jellyfin.url, ApiKey: jellyfin.apiKey });
    expect(again.status).toBe(409);
    expect((await ok<ServerRow[]>(call('GET', '/api/mediaServers'))).length).toBe(1);

    const tested = await ok<{ ok: boolean; Kind: string }>(call('POST', '/api/mediaServers/test', { Url: emby.url, ApiKey: emby.apiKey }));
    expect(tested).toMatchObject({ ok: true, Kind: 'emby' });
    const failedTest = await ok<{ ok: boolean; message: string }>(
      call('POST', '/api/mediaServers/test', { Url: emby.url, ApiKey: 'nope' }),
    );
    expect(failedTest).toMatchObject({ ok: false, message: 'The media server rejected the API key' });

    const added = await ok<{ server: ServerRow }>(
      call('POST', '/api/mediaServers', { Url: emby.url, ApiKey: emby.apiKey, Name: 'Living room Emby' }),
      201,
    );
    expect(added.server).toMatchObject({ Name: 'Living room Emby', Kind: 'emby', IsDefault: false, ManagedBy: 'ui' });
    const servers = await ok<ServerRow[]>(call('GET', '/api/mediaServers'));
    expect(servers.map((s) => [s.Kind, s.IsDefault])).toEqual([
      ['jellyfin', true],
      ['emby', false],
    ]);
    jellyfinId = servers[0]!.Id;
    embyId = servers[1]!.Id;
    expect((await ok<{ ok: boolean }>(call('POST', `/api/mediaServers/${embyId}/test`))).ok).toBe(true);
  });

  it('syncs both; each server answers its own libraries, users and items', async () => {
    for (const id of [jellyfinId, embyId]) {
      await waitFor(
        async () => {
          const [movie] = await db.query<{ id: string; name: string; library_id: string }>(
            `SELECT id, name, library_id FROM items WHERE server_id = $1 AND type = 'Movie' ORDER BY id LIMIT 1`,
            [id],
          );
          const [user] = await db.query<{ id: string; name: string }>(
            `SELECT id, name FROM media_users WHERE server_id = $1 ORDER BY id LIMIT 1`,
            [id],
          );
          if (!movie || !user) return undefined;
          picked[id] = { movie: { id: movie.id, name: movie.name, library: movie.library_id }, user };
          return true;
        },
        `the sync of server ${id}`,
        60_000,
      );
    }
    const libraryIds = async (query: string) =>
      new Set((await ok<Array<{ Id: string }>>(call('GET', `/api/getLibraries${query}`))).map((library) => library.Id));
    const [byDefault, ofJellyfin, ofEmby] = await Promise.all([
      libraryIds(''),
      libraryIds(`?serverId=${jellyfinId}`),
      libraryIds(`?serverId=${embyId}`),
    ]);
    expect(byDefault).toEqual(ofJellyfin);
    expect(ofEmby.size).toBeGreaterThan(0);
    expect([...ofEmby].some((id) => ofJellyfin.has(id))).toBe(false);

    // The libraries list with "all": every server's library cards and files, each row naming its server.
    type Row = { Id: string; ServerId?: string };
    for (const path of ['/stats/getLibraryCardStats', '/stats/getLibraryMetadata']) {
      const [ofOne, ofOther, ofAll] = await Promise.all([
        ok<Row[]>(call('GET', `${path}?serverId=${jellyfinId}`)),
        ok<Row[]>(call('GET', `${path}?serverId=${embyId}`)),
        ok<Row[]>(call('GET', `${path}?serverId=all`)),
      ]);
      expect(ofOther.length, path).toBeGreaterThan(0);
      expect(ofAll.map((row) => `${row.ServerId}/${row.Id}`).sort(), path).toEqual(
        [...ofOne.map((row) => `${jellyfinId}/${row.Id}`), ...ofOther.map((row) => `${embyId}/${row.Id}`)].sort(),
      );
      expect(
        ofOne.every((row) => row.ServerId === undefined),
        path,
      ).toBe(true);
    }

    // The same item asked of the other server is not there; in the body as well as in the query.
    const embyMovie = picked[embyId]!.movie;
    expect((await call('POST', '/api/getItemDetails', { Id: embyMovie.id })).status).toBe(404);
    expect((await ok<Array<{ Name: string }>>(call('POST', '/api/getItemDetails', { Id: embyMovie.id, serverId: embyId })))[0]!.Name).toBe(
      embyMovie.name,
    );
    expect((await call('POST', `/api/getItemDetails?serverId=${embyId}`, { Id: embyMovie.id })).status).toBe(200);

    // Images: from the named server; with "all" (the dashboard's mixed lists), from the server that has the item.
    const image = async (query: string) => (await fetch(`${harness.url}/proxy/Items/Images/Primary?id=${embyMovie.id}${query}`)).status;
    expect(await image(`&serverId=${embyId}`)).toBe(200);
    expect(await image('&serverId=all')).toBe(200);
    expect(await image('')).not.toBe(200);
  }, 120_000);

  it('reads plays per server, sums them with serverId=all, and answers the default server without serverId', async () => {
    const plays: PlayToRecord[] = [];
    const counts: Record<string, number> = { [jellyfinId]: 3, [embyId]: 2 };
    for (const [serverId, count] of Object.entries(counts)) {
      const { movie, user } = picked[serverId]!;
      for (let n = 0; n < count; n += 1) {
        plays.push({
          serverId,
          playKey: `${serverId}-${n}`,
          source: 'monitor',
          userId: user.id,
          userName: user.name,
          itemId: movie.id,
          itemName: movie.name,
          itemType: 'Movie',
          libraryId: movie.library,
          client: 'Jellyfin Web',
          playMethod: n === 0 ? 'Transcode' : 'DirectPlay',
          startedAt: new Date(Date.now() - (n + 1) * 3_600_000),
          playedSeconds: 600,
        });
      }
    }
    await recordPlays(db, plays);

    type Card = { Id: string; Name: string; Plays: number };
    const movies = (serverId?: string) =>
      ok<Card[]>(call('POST', '/stats/getMostViewedByType', { days: 30, type: 'Movie', ...(serverId ? { serverId } : {}) }));
    expect((await movies()).map((c) => [c.Id, c.Plays])).toEqual([[picked[jellyfinId]!.movie.id, 3]]);
    expect((await movies(jellyfinId)).map((c) => [c.Id, c.Plays])).toEqual([[picked[jellyfinId]!.movie.id, 3]]);
    expect((await movies(embyId)).map((c) => [c.Id, c.Plays])).toEqual([[embyMovie().id, 2]]);
    expect((await movies('all')).map((c) => [c.Id, c.Plays])).toEqual([
      [picked[jellyfinId]!.movie.id, 3],
      [embyMovie().id, 2],
    ]);

    const clients = (serverId: string) =>
      ok<Array<{ Client: string; Plays: number }>>(call('POST', `/stats/getMostUsedClient?serverId=${serverId}`, { days: 30 }));
    expect(await clients(embyId)).toEqual([{ Client: 'Jellyfin Web', Plays: 2, total_playback_duration: 1200 }]);
    expect(await clients('all')).toEqual([{ Client: 'Jellyfin Web', Plays: 5, total_playback_duration: 3000 }]);

    const methods = await ok<Array<{ Name: string; Count: number }>>(
      call('POST', '/stats/getPlaybackMethodStats', { days: 30, serverId: 'all' }),
    );
    // Emby's direct play is stored as DirectStream (SPEC.md §3), so the Emby server adds its own row.
    expect(Object.fromEntries(methods.map((m) => [m.Name, m.Count]))).toEqual({ DirectPlay: 2, DirectStream: 1, Transcode: 2 });

    const history = async (query: string) =>
      (await ok<{ total: number; results: Array<{ UserId: string }> }>(call('GET', `/api/getHistory${query}`))).total;
    expect(await history('')).toBe(3);
    expect(await history(`?serverId=${embyId}`)).toBe(2);
    expect(await history('?serverId=all')).toBe(5);
    expect(await history('?serverId=all&search=' + encodeURIComponent(embyMovie().name.slice(0, 4)))).toBeGreaterThanOrEqual(2);

    type UserRow = { UserId: string; TotalPlays: number; ServerId?: string };
    const users = async (query: string) => ok<UserRow[]>(call('GET', `/stats/getAllUserActivity${query}`));
    const [defaultUsers, embyUsers, allUsers] = await Promise.all([users(''), users(`?serverId=${embyId}`), users('?serverId=all')]);
    expect(allUsers.length).toBe(defaultUsers.length + embyUsers.length);
    expect(allUsers.reduce((sum, u) => sum + u.TotalPlays, 0)).toBe(5);
    expect(allUsers.find((u) => u.UserId === picked[embyId]!.user.id && u.ServerId === embyId)?.TotalPlays).toBe(2);
    expect(embyUsers.reduce((sum, u) => sum + u.TotalPlays, 0)).toBe(2);

    const totals = await ok<{ Plays: number }>(
      call('POST', '/stats/getGlobalUserStats', { userid: picked[embyId]!.user.id, hours: 24, serverId: embyId }),
    );
    expect(totals.Plays).toBe(2);
    const config = await ok<{ IS_JELLYFIN: boolean }>(call('GET', `/api/getconfig?serverId=${embyId}`));
    expect(config.IS_JELLYFIN).toBe(false);
    expect((await ok<{ IS_JELLYFIN: boolean }>(call('GET', '/api/getconfig'))).IS_JELLYFIN).toBe(true);
  });

  it('refuses a malformed serverId (400), an unknown one (404) and "all" where it has no meaning (400), in the error shape', async () => {
    const malformed = await call('GET', '/api/getLibraries?serverId=nope');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ status: 400, code: 'bad_request' });
    expect((malformed.body as { message: string }).message).toContain('query.serverId');

    const unknown = await call('POST', '/stats/getMostViewedByType', {
      days: 30,
      type: 'Movie',
      serverId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, code: 'media_server_not_found' });

    const all = await call('POST', '/api/getUserDetails', { userid: picked[embyId]!.user.id, serverId: 'all' });
    expect(all.status).toBe(400);
    expect((all.body as { message: string }).message).toContain('"all" is not accepted by this call');
  });

  it('a library declared untracked with the link (a MediaStatsServer spec) is untracked by the sync and not flipped from the screen', async () => {
    type Tracked = { Id: string; Name: string; Tracked: boolean };
    const [target] = await ok<Tracked[]>(call('GET', `/api/TrackedLibraries?serverId=${embyId}`));
    expect(target!.Tracked).toBe(true);
    await db.query('UPDATE media_servers SET settings = $2 WHERE id = $1', [
      embyId,
      JSON.stringify({ untrackedLibraries: [target!.Name] }),
    ]);
    // A sync may still run (the one started when the server was added): start one as soon as it is free.
    await waitFor(async () => ((await call('GET', '/sync/beginSync')).status === 200 ? true : undefined), 'a full sync to start', 90_000);
    await waitFor(
      async () => {
        const libraries = await ok<Tracked[]>(call('GET', `/api/TrackedLibraries?serverId=${embyId}`));
        return libraries.find((library) => library.Id === target!.Id)?.Tracked === false ? true : undefined;
      },
      'the declared library to be untracked',
      90_000,
    );
    const flipped = await call('POST', '/api/setExcludedLibraries', { libraryID: target!.Id, serverId: embyId });
    expect(flipped.status).toBe(409);
    expect((flipped.body as { message: string }).message).toContain('untrackedLibraries');
    await db.query(`UPDATE media_servers SET settings = '{}' WHERE id = $1`, [embyId]);
  }, 200_000);

  it('renames and makes a server the default; a Kubernetes-managed one is read-only; removing keeps the history', async () => {
    await ok(call('PUT', `/api/mediaServers/${embyId}`, { Name: 'Emby (den)', IsDefault: true }));
    const servers = await ok<ServerRow[]>(call('GET', '/api/mediaServers'));
    expect(servers[0]).toMatchObject({ Id: embyId, Name: 'Emby (den)', IsDefault: true });
    // Calls without serverId follow the default.
    expect((await ok<{ total: number }>(call('GET', '/api/getHistory'))).total).toBe(2);
    await ok(call('PUT', `/api/mediaServers/${jellyfinId}`, { IsDefault: true }));

    await db.query(`UPDATE media_servers SET managed_by = 'kubernetes', managed_ref = 'media/den' WHERE id = $1`, [embyId]);
    const managed = await call('DELETE', `/api/mediaServers/${embyId}`);
    expect(managed.status).toBe(409);
    expect((managed.body as { message: string }).message).toContain('managed by Kubernetes (media/den)');
    await db.query(`UPDATE media_servers SET managed_by = 'ui', managed_ref = NULL WHERE id = $1`, [embyId]);

    await ok(call('DELETE', `/api/mediaServers/${embyId}`));
    expect((await ok<ServerRow[]>(call('GET', '/api/mediaServers'))).map((s) => s.Id)).toEqual([jellyfinId]);
    // Its history stays, readable by id; "all" now covers the servers in use.
    expect((await ok<{ total: number }>(call('GET', `/api/getHistory?serverId=${embyId}`))).total).toBe(2);
    expect((await ok<{ total: number }>(call('GET', '/api/getHistory?serverId=all'))).total).toBe(3);
    expect((await call('GET', `/api/TrackedLibraries?serverId=${embyId}`)).status).toBe(409);
  });

  function embyMovie() {
    return picked[embyId]!.movie;
  }
});
