/**
 * Fills a database with a large, realistic history for benchmarks (`npm run seed:history -- --plays 5000000`):
 * 500 users, 200,000 items (movies, series/seasons/episodes, tracks) with genres, and N plays over 3 years
 * with daily and weekly rhythms, written with COPY in start order (as the monitor records them: the table and
 * its ids follow time). Rollups and totals are then built by the same SQL as the 0004 migration, so the
 * statistics read exactly what recordPlays would have kept.
 *
 * Database: --database-url, else DATABASE_URL, else the embedded PostgreSQL under --data-dir (default
 * ./data/bench, the directory `npm run bench:api` uses). Deterministic: the same arguments give the same data,
 * placed in time before the moment the seed runs (the evening shift depends on that moment's hour).
 * Replaces whatever media data the database had.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import pino from 'pino';
import copyStreams from 'pg-copy-streams';
import { loadConfig } from '../src/config/load-config.js';
import { SecretBox } from '../src/security/secret-box.js';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { REBUILD_ROLLUPS_SQL } from '../src/history/rollup-sql.js';
import { MOVIE_GENRES } from '@reelstat/jellyfin-sim';
import { seededRandom } from '../src/test-support/seeded-random.js';
import { seedStreamPicker } from './seed-stream-details.js';

export const BENCH_SERVER_ID = '00000000-0000-4000-8000-00000000be7c';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const plays = Number(argument('plays', '100000'));
const users = Number(argument('users', '500'));
const dataDir = path.resolve(argument('data-dir', './data/bench'));
if (!Number.isInteger(plays) || plays < 1) throw new Error('--plays must be a positive whole number');

const rand = seededRandom(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
/** Skewed choice: a few popular entries, a long tail. */
const skewed = (count: number) => Math.floor(count * Math.pow(rand(), 2.2));
const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '\\N' : String(value).replace(/\\/g, '\\\\').replace(/\t/g, ' ').replace(/\n/g, ' ');

/** The simulator's movie genres, plus two of its TV genres. */
const GENRES = [...MOVIE_GENRES, 'Kids', 'Reality'];
const CLIENTS = [
  'Jellyfin Web',
  'Jellyfin Android',
  'Jellyfin iOS',
  'Android TV',
  'Infuse',
  'Swiftfin',
  'Finamp',
  'Kodi',
  'Roku',
  'Emby Theater',
];
const WORDS = [
  'Night',
  'Storm',
  'Silent',
  'Red',
  'Last',
  'City',
  'Dream',
  'River',
  'Ghost',
  'Iron',
  'Summer',
  'Shadow',
  'Golden',
  'Wild',
  'Blue',
  'Secret',
];
const title = (n: number) => `${WORDS[n % WORDS.length]} ${WORDS[Math.floor(n / WORDS.length) % WORDS.length]} ${n}`;

async function copyRows(client: pg.PoolClient | pg.Client, sql: string, rows: () => Generator<string>) {
  const source = Readable.from(
    (function* () {
      let batch: string[] = [];
      for (const row of rows()) {
        batch.push(row);
        if (batch.length >= 5000) {
          yield batch.join('');
          batch = [];
        }
      }
      if (batch.length) yield batch.join('');
    })(),
  );
  await pipeline(source, client.query(copyStreams.from(sql)));
}

interface Playable {
  id: string;
  name: string;
  type: 'Movie' | 'Episode' | 'Audio';
  library: string;
  seriesId: string | null;
  seriesName: string | null;
  seasonId: string | null;
  season: number | null;
  episode: number | null;
  seconds: number;
}

async function main() {
  const started = Date.now();
  const logger = pino({ level: 'warn' });
  let embedded: EmbeddedPostgres | undefined;
  let url = argument('database-url', loadConfig().databaseUrl ?? '');
  if (!url) {
    embedded = new EmbeddedPostgres(path.join(dataDir, 'postgres'), logger);
    url = await embedded.start();
  }
  const db = openDatabase(url, logger);
  await migrateToLatest(db, logger);
  await db.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`SET maintenance_work_mem = '1GB'`);
  await client.query('SET max_parallel_maintenance_workers = 2');
  const log = (message: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
  await client.query('TRUNCATE media_servers, play_json_values CASCADE');
  // The placeholder key is sealed as the server started on this directory will open it (ENCRYPTION_KEY, else the
  // directory's own secret): the dashboard then shows the seeded history and reports the server as unreachable.
  const secretBox = new SecretBox(loadConfig(undefined, { DATA_DIR: dataDir }).encryptionKey);
  await client.query(
    `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, 'Bench', 'jellyfin', 'http://127.0.0.1:1', $2, true)`,
    [BENCH_SERVER_ID, secretBox.seal('bench-placeholder-key')],
  );
  const server = BENCH_SERVER_ID;
  await client.query(
    `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'lib-movies', 'Movies', 'movies'), ($1, 'lib-shows', 'Shows', 'tvshows'),
       ($1, 'lib-music', 'Music', 'music'), ($1, 'lib-kids', 'Kids', 'mixed')`,
    [server],
  );
  await copyRows(client, 'COPY media_users (server_id, id, name, is_administrator) FROM STDIN', function* () {
    for (let u = 0; u < users; u += 1) yield `${server}\tuser-${u}\tUser ${u}\t${u === 0 ? 't' : 'f'}\n`;
  });

  // 200,000 items: 20,000 movies, 1,000 series with 5 seasons of 20 episodes, 74,000 tracks.
  const playable: Playable[] = [];
  const now = Date.now();
  const year = 365 * 86_400_000;
  await copyRows(
    client,
    `COPY items (server_id, id, library_id, type, name, series_id, series_name, season_id, season_name, index_number, parent_index_number,
       run_time_ticks, size, path, date_created, primary_image_tag) FROM STDIN`,
    function* () {
      const created = () => new Date(now - rand() * 3 * year).toISOString();
      for (let m = 0; m < 20_000; m += 1) {
        const library = m % 10 === 0 ? 'lib-kids' : 'lib-movies';
        const seconds = 5400 + Math.floor(rand() * 3600);
        playable.push({
          id: `movie-${m}`,
          name: title(m),
          type: 'Movie',
          library,
          seriesId: null,
          seriesName: null,
          seasonId: null,
          season: null,
          episode: null,
          seconds,
        });
        yield `${server}\tmovie-${m}\t${library}\tMovie\t${text(title(m))}\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t${seconds * 10_000_000}\t${2_000_000_000 + m}\t/movies/${m}.mkv\t${created()}\ttag${m}\n`;
      }
      for (let s = 0; s < 1000; s += 1) {
        const seriesId = `series-${s}`;
        const seriesName = `Show ${title(s)}`;
        yield `${server}\t${seriesId}\tlib-shows\tSeries\t${text(seriesName)}\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t${created()}\tstag${s}\n`;
        for (let season = 1; season <= 5; season += 1) {
          const seasonId = `season-${s}-${season}`;
          yield `${server}\t${seasonId}\tlib-shows\tSeason\tSeason ${season}\t${seriesId}\t${text(seriesName)}\t\\N\t\\N\t${season}\t\\N\t\\N\t\\N\t\\N\t${created()}\t\\N\n`;
          for (let e = 1; e <= 20; e += 1) {
            const id = `episode-${s}-${season}-${e}`;
            const seconds = 1500 + Math.floor(rand() * 2400);
            playable.push({
              id,
              name: `Episode ${e}`,
              type: 'Episode',
              library: 'lib-shows',
              seriesId,
              seriesName,
              seasonId,
              season,
              episode: e,
              seconds,
            });
            yield `${server}\t${id}\tlib-shows\tEpisode\tEpisode ${e}\t${seriesId}\t${text(seriesName)}\t${seasonId}\tSeason ${season}\t${e}\t${season}\t${seconds * 10_000_000}\t${500_000_000}\t/shows/${s}/${season}/${e}.mkv\t${created()}\t\\N\n`;
          }
        }
      }
      for (let t = 0; t < 74_000; t += 1) {
        const seconds = 150 + Math.floor(rand() * 240);
        playable.push({
          id: `track-${t}`,
          name: `Track ${title(t)}`,
          type: 'Audio',
          library: 'lib-music',
          seriesId: null,
          seriesName: null,
          seasonId: null,
          season: null,
          episode: null,
          seconds,
        });
        yield `${server}\ttrack-${t}\tlib-music\tAudio\t${text(`Track ${title(t)}`)}\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t${seconds * 10_000_000}\t${8_000_000}\t/music/${t}.flac\t${created()}\t\\N\n`;
      }
    },
  );
  await copyRows(client, 'COPY item_genres (server_id, item_id, genre) FROM STDIN', function* () {
    for (let m = 0; m < 20_000; m += 1)
      for (const genre of new Set([pick(GENRES), pick(GENRES)])) yield `${server}\tmovie-${m}\t${genre}\n`;
    for (let s = 0; s < 1000; s += 1) for (const genre of new Set([pick(GENRES), pick(GENRES)])) yield `${server}\tseries-${s}\t${genre}\n`;
  });
  log('users, 200,000 items and genres written');

  // Secondary indexes are rebuilt once after the load: far faster than maintaining them row by row.
  const indexes = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'playback_history' AND indexname NOT LIKE '%pkey' AND indexdef NOT LIKE '%UNIQUE%'
     ORDER BY indexdef LIKE '%gin%' DESC, indexname`,
  );
  for (const index of indexes.rows) await client.query(`DROP INDEX ${index.indexname}`);
  // The cards' triggers (0018) would aggregate the whole load once more: REBUILD_ROLLUPS_SQL builds every level below.
  await client.query('ALTER TABLE playback_history DISABLE TRIGGER USER');

  const jsonValues = new Map<string, number>();
  const valueId = (json: string) => {
    let id = jsonValues.get(json);
    if (id === undefined) jsonValues.set(json, (id = jsonValues.size + 1));
    return id;
  };
  const movies = playable.filter((p) => p.type === 'Movie');
  const episodes = playable.filter((p) => p.type === 'Episode');
  const tracks = playable.filter((p) => p.type === 'Audio');
  const span = 3 * year;
  // The plays are drawn in a random order of time, then written in start order, as the monitor writes them (a
  // play is recorded when it ends): the table's heap and its ids follow time, as on a real server. Each play is
  // kept in typed arrays between the two steps (about 30 bytes a play), so the draws, and so every play's
  // content, are those of the seed before it wrote in start order.
  const sources = [movies, episodes, tracks];
  const drawn = {
    source: new Uint8Array(plays),
    item: new Int32Array(plays),
    user: new Uint16Array(plays),
    at: new Float64Array(plays),
    played: new Int32Array(plays),
    method: new Uint8Array(plays),
    client: new Uint8Array(plays),
    paused: new Uint8Array(plays),
    streamDetails: new Int32Array(plays),
    transcodingInfo: new Int32Array(plays),
  };
  const METHODS = ['DirectPlay', 'DirectStream', 'Transcode'] as const;
  {
    // Its own random sequence: the rest of the seed stays what it was before plays carried stream details.
    const streamsOf = seedStreamPicker(seededRandom(7));
    for (let i = 0; i < plays; i += 1) {
      const kind = rand();
      const source = kind < 0.35 ? 0 : kind < 0.8 ? 1 : 2;
      const list = sources[source]!;
      const itemIndex = skewed(list.length);
      const item = list[itemIndex]!;
      const user = skewed(users);
      // Evenings and weekends are busier.
      let at = now - rand() * span;
      const hour = new Date(at).getUTCHours();
      if (hour < 17 && rand() < 0.4) at += (19 - hour) * 3_600_000;
      at = Math.min(at, now - 60_000);
      const played = Math.max(1, Math.floor(item.seconds * (0.2 + rand() * 0.8)));
      const method = rand() < 0.6 ? 0 : rand() < 0.5 ? 1 : 2;
      const client = (user + Math.floor(rand() * 2)) % CLIENTS.length;
      const streams = streamsOf(METHODS[method], item.type === 'Audio');
      drawn.source[i] = source;
      drawn.item[i] = itemIndex;
      drawn.user[i] = user;
      drawn.at[i] = at;
      drawn.played[i] = played;
      drawn.method[i] = method;
      drawn.client[i] = client;
      drawn.paused[i] = Math.floor(rand() * 120);
      drawn.streamDetails[i] = valueId(streams.streamDetails);
      drawn.transcodingInfo[i] = streams.transcodingInfo === null ? 0 : valueId(streams.transcodingInfo);
    }
  }
  const inStartOrder = new Uint32Array(plays).map((_, i) => i).sort((a, b) => drawn.at[a]! - drawn.at[b]! || a - b);
  log(`${plays.toLocaleString('en')} plays drawn and put in start order`);
  await copyRows(
    client,
    `COPY playback_history (server_id, play_key, source, user_id, user_name, item_id, item_name, item_type, series_id, series_name, season_id,
       season_number, episode_number, library_id, client, device_name, remote_end_point, play_method, started_at, ended_at, played_seconds,
       paused_seconds, run_time_ticks, stream_details_id, transcoding_info_id) FROM STDIN`,
    function* () {
      for (const i of inStartOrder) {
        const item = sources[drawn.source[i]!]![drawn.item[i]!]!;
        const user = drawn.user[i]!;
        const at = drawn.at[i]!;
        const played = drawn.played[i]!;
        const clientName = CLIENTS[drawn.client[i]!]!;
        yield (
          [
            server,
            `seed-${i}`,
            'monitor',
            `user-${user}`,
            `User ${user}`,
            item.id,
            text(item.name),
            item.type,
            text(item.seriesId),
            text(item.seriesName),
            text(item.seasonId),
            text(item.season),
            text(item.episode),
            item.library,
            clientName,
            `${clientName} device ${user % 7}`,
            `10.0.${user % 250}.${(user * 7) % 250}`,
            METHODS[drawn.method[i]!],
            new Date(at).toISOString(),
            new Date(at + played * 1000).toISOString(),
            played,
            drawn.paused[i],
            item.seconds * 10_000_000,
            drawn.streamDetails[i],
            drawn.transcodingInfo[i] === 0 ? '\\N' : drawn.transcodingInfo[i],
          ].join('\t') + '\n'
        );
      }
    },
  );
  // Stored once per distinct value (migration 0022), with the ids the rows were given.
  await client.query(
    `INSERT INTO play_json_values (id, hash, value)
     SELECT (e ->> 0)::int, md5((e -> 1)::jsonb::text)::uuid, (e -> 1)::jsonb FROM json_array_elements($1::json) AS e`,
    [JSON.stringify([...jsonValues].map(([json, id]) => [id, JSON.parse(json) as unknown]))],
  );
  await client.query(
    `SELECT setval(pg_get_serial_sequence('play_json_values', 'id'), GREATEST((SELECT max(id) FROM play_json_values), 1))`,
  );
  log(`${plays.toLocaleString('en')} plays copied (${jsonValues.size} distinct stream details and transcode infos)`);
  // Rebuilt on two connections at once (the trigram index alone takes as long as several b-trees).
  const queue = [...indexes.rows];
  await Promise.all(
    [0, 1].map(async () => {
      const builder = new pg.Client({ connectionString: url });
      await builder.connect();
      await builder.query(`SET maintenance_work_mem = '512MB'`);
      for (let index = queue.shift(); index; index = queue.shift()) await builder.query(index.indexdef);
      await builder.end();
    }),
  );
  log('history indexes rebuilt');
  await client.query('ALTER TABLE playback_history ENABLE TRIGGER USER');
  await client.query(REBUILD_ROLLUPS_SQL);
  log('rollups and totals built');
  await client.query('VACUUM ANALYZE');
  log('vacuumed and analysed');
  await client.end();
  await embedded?.stop();
  console.log(JSON.stringify({ plays, users, items: 200_000, seconds: Math.round((Date.now() - started) / 1000) }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
