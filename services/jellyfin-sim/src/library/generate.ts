/** Deterministic library generation: one seed and scale always give the same users, libraries and items. */
import { Rng } from '../rng.js';
import { Store } from './store.js';
import type { CollectionType, ImageKind, ItemKind, Library, Scale, SimItem, SimUser } from './types.js';
import { audioMedia, videoMedia } from './media.js';
import {
  ADJECTIVES,
  ARTIST_SUFFIX,
  ARTIST_WORDS,
  FIRST_NAMES,
  MOVIE_GENRES,
  MUSIC_GENRES,
  NOUNS,
  RATINGS,
  STUDIOS,
  TV_GENRES,
} from './words.js';

export type Flavor = 'jellyfin' | 'emby';

/** Items are dated relative to this fixed instant so generation does not depend on the wall clock. */
export const REFERENCE_DATE = Date.UTC(2026, 0, 1);
const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
const TICKS_PER_MINUTE = 600_000_000;

interface PresetSpec {
  users: number;
  admins: number;
  movies: number;
  series: number;
  seasons: [number, number];
  episodes: [number, number];
  artists: number;
  albums: [number, number];
  tracks: [number, number];
  mixedMovies: number;
  mixedSeries: number;
  boxsets: number;
  playlists: number;
}

export const PRESETS: Record<Scale, PresetSpec> = {
  tiny: {
    users: 3,
    admins: 1,
    movies: 40,
    series: 4,
    seasons: [1, 3],
    episodes: [6, 10],
    artists: 3,
    albums: [2, 2],
    tracks: [7, 9],
    mixedMovies: 8,
    mixedSeries: 1,
    boxsets: 2,
    playlists: 2,
  },
  small: {
    users: 20,
    admins: 2,
    movies: 600,
    series: 60,
    seasons: [1, 5],
    episodes: [6, 13],
    artists: 60,
    albums: [2, 4],
    tracks: [8, 14],
    mixedMovies: 100,
    mixedSeries: 6,
    boxsets: 12,
    playlists: 10,
  },
  large: {
    users: 500,
    admins: 5,
    movies: 5000,
    series: 2850,
    seasons: [1, 13],
    episodes: [6, 14],
    artists: 1000,
    albums: [2, 5],
    tracks: [8, 15],
    mixedMovies: 200,
    mixedSeries: 10,
    boxsets: 150,
    playlists: 200,
  },
};

export interface GenerateOptions {
  seed: number;
  scale: Scale;
  flavor: Flavor;
}

export class IdFactory {
  private counter = 1000;
  constructor(
    private readonly flavor: Flavor,
    private readonly rng: Rng,
  ) {}
  /** Item ids: 32-hex GUIDs on Jellyfin, numeric strings on Emby. */
  item(): string {
    return this.flavor === 'emby' ? String(this.counter++) : this.rng.hex32();
  }
  /** User ids are GUIDs on both servers. */
  guid(): string {
    return this.rng.hex32();
  }
}

export interface Generated {
  store: Store;
  ids: IdFactory;
  serverId: string;
}

export function generateLibrary(opts: GenerateOptions): Generated {
  const root = new Rng(opts.seed);
  const ids = new IdFactory(opts.flavor, root.fork('ids'));
  const serverId = root.fork('server').hex32();
  const spec = PRESETS[opts.scale];
  const store = new Store();
  const g = new Gen(store, ids, root.fork('library'));

  const lib = (name: string, collectionType: CollectionType, folder: string, virtual = true): Library => {
    const l: Library = { id: ids.item(), name, collectionType, virtual, locations: [folder] };
    store.libraries.push(l);
    store.add({
      id: l.id,
      kind: collectionType === 'playlists' ? 'PlaylistsFolder' : 'CollectionFolder',
      name,
      sortName: name.toLowerCase(),
      libraryId: l.id,
      collectionType,
      isFolder: true,
      mediaType: 'Unknown',
      dateCreated: REFERENCE_DATE - 6 * YEAR_MS,
      dateLastSaved: REFERENCE_DATE - 6 * YEAR_MS,
      genres: [],
      images: collectionType === 'playlists' ? [] : ['Primary'],
      revision: 0,
      path: folder,
    });
    return l;
  };

  const movies = lib('Movies', 'movies', '/media/movies');
  const shows = lib('Shows', 'tvshows', '/media/tv');
  const music = lib('Music', 'music', '/media/music');
  const mixed = spec.mixedMovies + spec.mixedSeries > 0 ? lib('Home & Mixed', 'mixed', '/media/mixed') : undefined;
  const boxsets = lib('Collections', 'boxsets', '/config/data/collections');
  const playlists = lib('Playlists', 'playlists', '/config/data/playlists', false);

  const movieIds: string[] = [];
  for (let i = 0; i < spec.movies; i++) movieIds.push(g.movie(movies).id);
  for (let i = 0; i < spec.series; i++) g.series(shows, spec);
  for (let i = 0; i < spec.artists; i++) g.artist(music, spec);
  if (mixed) {
    for (let i = 0; i < spec.mixedMovies; i++) movieIds.push(g.movie(mixed).id);
    for (let i = 0; i < spec.mixedSeries; i++) g.series(mixed, spec);
  }
  for (let i = 0; i < spec.boxsets; i++) g.boxset(boxsets, movieIds);

  const users = generateUsers(store, ids, root.fork('users'), spec, [movies, shows, music, ...(mixed ? [mixed] : [])]);
  for (let i = 0; i < spec.playlists; i++) g.playlist(playlists, users);
  seedUserData(store, root.fork('userdata'), users);
  return { store, ids, serverId };
}

function generateUsers(store: Store, ids: IdFactory, rng: Rng, spec: PresetSpec, libs: Library[]): SimUser[] {
  const users: SimUser[] = [];
  for (let i = 0; i < spec.users; i++) {
    const base = i === 0 ? 'admin' : (FIRST_NAMES[(i - 1) % FIRST_NAMES.length] as string);
    const name = i === 0 || i - 1 < FIRST_NAMES.length ? base : `${base}${Math.floor((i - 1) / FIRST_NAMES.length) + 1}`;
    const isAdmin = i < spec.admins;
    const restricted = !isAdmin && rng.chance(0.2);
    const created = REFERENCE_DATE - rng.next() * 5 * YEAR_MS;
    const u: SimUser = {
      id: ids.guid(),
      name,
      password: 'password',
      isAdministrator: isAdmin,
      isHidden: !isAdmin && rng.chance(0.05),
      isDisabled: !isAdmin && i > 2 && rng.chance(0.04),
      hasImage: rng.chance(0.6),
      imageRevision: 0,
      enableAllFolders: !restricted,
      enabledFolders: restricted ? libs.filter(() => rng.chance(0.6)).map((l) => l.id) : [],
      dateCreated: created,
      lastLoginDate: REFERENCE_DATE - rng.next() * 60 * DAY_MS,
    };
    if (restricted && u.enabledFolders.length === 0) u.enabledFolders.push((libs[0] as Library).id);
    u.lastActivityDate = u.lastLoginDate;
    users.push(u);
    store.users.set(u.id, u);
  }
  return users;
}

function seedUserData(store: Store, rng: Rng, users: SimUser[]): void {
  const playable = [...(store.byKind.get('Movie') ?? []), ...(store.byKind.get('Episode') ?? [])];
  if (playable.length === 0) return;
  for (const u of users) {
    const n = Math.min(playable.length, rng.int(0, 25));
    for (let i = 0; i < n; i++) {
      const id = rng.pick(playable);
      const d = store.ensureUserData(u.id, id);
      d.playCount += 1;
      d.played = rng.chance(0.8);
      d.isFavorite = rng.chance(0.1);
      d.lastPlayedDate = REFERENCE_DATE - rng.next() * YEAR_MS;
      const item = store.get(id);
      if (!d.played && item?.runTimeTicks) d.playbackPositionTicks = Math.floor(item.runTimeTicks * (0.1 + rng.next() * 0.7));
    }
  }
}

class Gen {
  constructor(
    private readonly store: Store,
    private readonly ids: IdFactory,
    private readonly rng: Rng,
  ) {}

  private title(): string {
    const r = this.rng;
    const shape = r.int(0, 3);
    const a = r.pick(ADJECTIVES);
    const n = r.pick(NOUNS);
    if (shape === 0) return `The ${a} ${n}`;
    if (shape === 1) return `${a} ${n}`;
    if (shape === 2) return `${n} of the ${r.pick(NOUNS)}`;
    return `${a} ${n} ${r.int(2, 4)}`;
  }

  private genres(list: readonly string[]): string[] {
    const n = this.rng.int(1, 3);
    const out = new Set<string>();
    while (out.size < n) out.add(this.rng.pick(list));
    return [...out];
  }

  private images(base: ImageKind[], missing = 0.04): ImageKind[] {
    return this.rng.chance(missing) ? [] : base.filter((k) => k === 'Primary' || this.rng.chance(0.85));
  }

  private createdDate(): number {
    // Most of the library is old; a tail of recent additions keeps "recently added" interesting.
    return this.rng.chance(0.1) ? REFERENCE_DATE - this.rng.next() * 30 * DAY_MS : REFERENCE_DATE - this.rng.next() * 6 * YEAR_MS;
  }

  private providerIds(kind: 'movie' | 'tv' | 'music'): Record<string, string> {
    const r = this.rng;
    if (kind === 'music') return { MusicBrainzArtist: r.hex32().replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') };
    const ids: Record<string, string> = { Tmdb: String(r.int(1000, 999_999)) };
    if (r.chance(0.9)) ids.Imdb = `tt${String(r.int(100_000, 9_999_999)).padStart(7, '0')}`;
    if (kind === 'tv') ids.Tvdb = String(r.int(70_000, 450_000));
    return ids;
  }

  private add(item: SimItem): SimItem {
    this.store.add(item);
    return item;
  }

  private extra(owner: SimItem, kind: ItemKind, extraType: 'ThemeSong' | 'ThemeVideo' | 'Trailer', seconds: number, dir: string): string {
    const id = this.ids.item();
    const ticks = seconds * 10_000_000;
    const isAudio = extraType === 'ThemeSong';
    const file =
      extraType === 'ThemeSong' ? 'theme.mp3' : extraType === 'ThemeVideo' ? 'backdrops/theme.mp4' : `trailers/${owner.name}-trailer.mkv`;
    this.add({
      id,
      kind,
      name: extraType === 'Trailer' ? `${owner.name} (Trailer)` : 'theme',
      sortName: 'theme',
      ownerId: owner.id,
      extraType,
      libraryId: owner.libraryId,
      isFolder: false,
      mediaType: isAudio ? 'Audio' : 'Video',
      runTimeTicks: ticks,
      dateCreated: owner.dateCreated,
      dateLastSaved: owner.dateCreated,
      genres: [],
      images: extraType === 'Trailer' ? ['Primary'] : [],
      revision: 0,
      path: `${dir}/${file}`,
      media: isAudio ? audioMedia(this.rng, ticks) : videoMedia(this.rng, 'episode', ticks),
    });
    return id;
  }

  movie(lib: Library): SimItem {
    const r = this.rng;
    const name = this.title();
    const year = r.int(1950, 2025);
    const runTimeTicks = r.int(78, 175) * TICKS_PER_MINUTE + r.int(0, 59) * 10_000_000;
    const dir = `${lib.locations[0]}/${name} (${year})`;
    const created = this.createdDate();
    const media = videoMedia(r, 'movie', runTimeTicks);
    const item = this.add({
      id: this.ids.item(),
      kind: 'Movie',
      name,
      sortName: sortName(name),
      parentId: lib.id,
      libraryId: lib.id,
      isFolder: false,
      mediaType: 'Video',
      runTimeTicks,
      productionYear: year,
      premiereDate: Date.UTC(year, r.int(0, 11), r.int(1, 28)),
      dateCreated: created,
      dateLastSaved: created,
      genres: this.genres(MOVIE_GENRES),
      studios: [r.pick(STUDIOS)],
      overview: `A ${r.pick(ADJECTIVES).toLowerCase()} story about a ${r.pick(NOUNS).toLowerCase()}.`,
      officialRating: r.pick(RATINGS),
      communityRating: Math.round((4 + r.next() * 5) * 10) / 10,
      criticRating: r.int(10, 99),
      providerIds: this.providerIds('movie'),
      path: `${dir}/${name} (${year}).${media.container}`,
      media,
      images: this.images(['Primary', 'Backdrop', 'Logo', 'Thumb', 'Disc']),
      revision: 0,
    });
    if (r.chance(0.25)) item.localTrailerIds = [this.extra(item, 'Trailer', 'Trailer', r.int(90, 180), dir)];
    if (r.chance(0.08)) item.themeSongIds = [this.extra(item, 'Audio', 'ThemeSong', r.int(60, 180), dir)];
    if (r.chance(0.04)) item.themeVideoIds = [this.extra(item, 'Video', 'ThemeVideo', r.int(30, 90), dir)];
    return item;
  }

  series(lib: Library, spec: PresetSpec): SimItem {
    const r = this.rng;
    const name = this.title();
    const startYear = r.int(1990, 2024);
    const created = this.createdDate();
    const dir = `${lib.locations[0]}/${name} (${startYear})`;
    const ended = r.chance(0.5);
    const seasonCount = r.int(spec.seasons[0], spec.seasons[1]);
    const series = this.add({
      id: this.ids.item(),
      kind: 'Series',
      name,
      sortName: sortName(name),
      parentId: lib.id,
      libraryId: lib.id,
      isFolder: true,
      mediaType: 'Unknown',
      productionYear: startYear,
      premiereDate: Date.UTC(startYear, r.int(0, 11), r.int(1, 28)),
      endDate: ended ? Date.UTC(Math.min(2025, startYear + seasonCount), r.int(0, 11), r.int(1, 28)) : undefined,
      status: ended ? 'Ended' : 'Continuing',
      dateCreated: created,
      dateLastSaved: created,
      genres: this.genres(TV_GENRES),
      studios: [r.pick(STUDIOS)],
      overview: `Every season of ${name}.`,
      officialRating: r.pick(RATINGS),
      communityRating: Math.round((5 + r.next() * 4.5) * 10) / 10,
      providerIds: this.providerIds('tv'),
      path: dir,
      images: this.images(['Primary', 'Backdrop', 'Banner', 'Logo', 'Thumb']),
      revision: 0,
    });
    if (r.chance(0.3)) series.themeSongIds = [this.extra(series, 'Audio', 'ThemeSong', r.int(30, 120), dir)];
    if (r.chance(0.05)) series.themeVideoIds = [this.extra(series, 'Video', 'ThemeVideo', r.int(30, 90), dir)];
    const epMinutes = r.pick([22, 24, 30, 42, 45, 50, 58]);
    let when = created;
    const hasSpecials = r.chance(0.15);
    for (let s = hasSpecials ? 0 : 1; s <= seasonCount; s++) {
      const seasonName = s === 0 ? 'Specials' : `Season ${s}`;
      const season = this.add({
        id: this.ids.item(),
        kind: 'Season',
        name: seasonName,
        sortName: seasonName.toLowerCase(),
        parentId: series.id,
        libraryId: lib.id,
        isFolder: true,
        mediaType: 'Unknown',
        seriesId: series.id,
        seriesName: name,
        indexNumber: s,
        productionYear: startYear + Math.max(0, s - 1),
        dateCreated: when,
        dateLastSaved: when,
        genres: [],
        path: `${dir}/${s === 0 ? 'Specials' : `Season ${String(s).padStart(2, '0')}`}`,
        images: this.images(['Primary'], 0.2),
        revision: 0,
      });
      const count = s === 0 ? r.int(1, 3) : r.int(spec.episodes[0], spec.episodes[1]);
      for (let e = 1; e <= count; e++) {
        const epName = r.chance(0.5) ? `The ${r.pick(NOUNS)}` : `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
        const runTimeTicks = (epMinutes + r.int(-3, 4)) * TICKS_PER_MINUTE + r.int(0, 59) * 10_000_000;
        const media = videoMedia(r, 'episode', runTimeTicks);
        const code = `S${String(s).padStart(2, '0')}E${String(e).padStart(2, '0')}`;
        when += r.int(0, 3) * DAY_MS + r.int(0, 3600_000);
        const premiere = Date.UTC(startYear + Math.max(0, s - 1), 0, 1) + e * 7 * DAY_MS;
        this.add({
          id: this.ids.item(),
          kind: 'Episode',
          name: epName,
          sortName: `${String(s).padStart(3, '0')} - ${String(e).padStart(4, '0')} - ${epName.toLowerCase()}`,
          parentId: season.id,
          libraryId: lib.id,
          isFolder: false,
          mediaType: 'Video',
          seriesId: series.id,
          seriesName: name,
          seasonId: season.id,
          seasonName,
          indexNumber: e,
          parentIndexNumber: s,
          runTimeTicks,
          productionYear: new Date(premiere).getUTCFullYear(),
          premiereDate: premiere,
          dateCreated: Math.min(when, REFERENCE_DATE - 1000),
          dateLastSaved: Math.min(when, REFERENCE_DATE - 1000),
          genres: series.genres,
          overview: r.chance(0.8) ? `${name} ${code}.` : undefined,
          officialRating: series.officialRating,
          communityRating: Math.round((6 + r.next() * 3.5) * 10) / 10,
          providerIds: { Tvdb: String(r.int(100_000, 9_999_999)) },
          path: `${season.path}/${name} - ${code} - ${epName}.${media.container}`,
          media,
          images: this.images(['Primary'], 0.05),
          revision: 0,
        });
      }
    }
    return series;
  }

  artist(lib: Library, spec: PresetSpec): void {
    const r = this.rng;
    const name = r.chance(0.5) ? `The ${r.pick(ARTIST_WORDS)} ${r.pick(ARTIST_SUFFIX)}` : `${r.pick(ARTIST_WORDS)} ${r.pick(ARTIST_WORDS)}`;
    const created = this.createdDate();
    const dir = `${lib.locations[0]}/${name}`;
    const genres = this.genres(MUSIC_GENRES);
    const artist = this.add({
      id: this.ids.item(),
      kind: 'MusicArtist',
      name,
      sortName: sortName(name),
      parentId: lib.id,
      libraryId: lib.id,
      isFolder: true,
      mediaType: 'Unknown',
      dateCreated: created,
      dateLastSaved: created,
      genres,
      overview: `${name} make records.`,
      providerIds: this.providerIds('music'),
      path: dir,
      images: this.images(['Primary', 'Backdrop', 'Logo'], 0.15),
      revision: 0,
    });
    const albums = r.int(spec.albums[0], spec.albums[1]);
    let when = created;
    for (let a = 0; a < albums; a++) {
      const albumName = r.chance(0.5) ? `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}` : r.pick(NOUNS);
      const year = r.int(1965, 2025);
      when += r.int(1, 400) * DAY_MS;
      const albumDate = Math.min(when, REFERENCE_DATE - 1000);
      const album = this.add({
        id: this.ids.item(),
        kind: 'MusicAlbum',
        name: albumName,
        sortName: sortName(albumName),
        parentId: artist.id,
        libraryId: lib.id,
        isFolder: true,
        mediaType: 'Unknown',
        albumArtist: name,
        artists: [name],
        artistIds: [artist.id],
        productionYear: year,
        premiereDate: Date.UTC(year, r.int(0, 11), r.int(1, 28)),
        dateCreated: albumDate,
        dateLastSaved: albumDate,
        genres,
        path: `${dir}/${albumName} (${year})`,
        images: this.images(['Primary'], 0.05),
        revision: 0,
        providerIds: { MusicBrainzAlbum: r.hex32().replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') },
      });
      const tracks = r.int(spec.tracks[0], spec.tracks[1]);
      for (let t = 1; t <= tracks; t++) {
        const title = r.chance(0.5)
          ? `${r.pick(NOUNS)} ${r.pick(['Song', 'Dance', 'Blues', 'Theme', 'Lights'])}`
          : `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
        const runTimeTicks = r.int(95, 420) * 10_000_000;
        const media = audioMedia(r, runTimeTicks);
        this.add({
          id: this.ids.item(),
          kind: 'Audio',
          name: title,
          sortName: sortName(title),
          parentId: album.id,
          libraryId: lib.id,
          isFolder: false,
          mediaType: 'Audio',
          albumId: album.id,
          album: albumName,
          albumArtist: name,
          artists: [name],
          artistIds: [artist.id],
          indexNumber: t,
          parentIndexNumber: 1,
          runTimeTicks,
          productionYear: year,
          premiereDate: album.premiereDate,
          dateCreated: albumDate,
          dateLastSaved: albumDate,
          genres,
          path: `${album.path}/${String(t).padStart(2, '0')} - ${title}.${media.container}`,
          media,
          images: [],
          revision: 0,
        });
      }
    }
  }

  boxset(lib: Library, movieIds: string[]): void {
    const r = this.rng;
    const name = `${r.pick(NOUNS)} Collection`;
    const members = new Set<string>();
    const n = Math.min(movieIds.length, r.int(2, 6));
    while (members.size < n) members.add(r.pick(movieIds));
    const created = this.createdDate();
    this.add({
      id: this.ids.item(),
      kind: 'BoxSet',
      name,
      sortName: sortName(name),
      parentId: lib.id,
      libraryId: lib.id,
      isFolder: true,
      mediaType: 'Unknown',
      dateCreated: created,
      dateLastSaved: created,
      genres: [],
      images: this.images(['Primary', 'Backdrop']),
      revision: 0,
      path: `${lib.locations[0]}/${name} [boxset]`,
      memberIds: [...members],
    });
  }

  playlist(lib: Library, users: SimUser[]): void {
    const r = this.rng;
    const owner = r.pick(users);
    const pool = [...(this.store.byKind.get(r.chance(0.5) ? 'Audio' : 'Episode') ?? [])];
    const members: string[] = [];
    for (let i = 0, n = Math.min(pool.length, r.int(3, 25)); i < n; i++) members.push(r.pick(pool));
    const name = `${owner.name}'s ${r.pick(ADJECTIVES)} mix`;
    const created = this.createdDate();
    this.add({
      id: this.ids.item(),
      kind: 'Playlist',
      name,
      sortName: sortName(name),
      parentId: lib.id,
      libraryId: lib.id,
      isFolder: true,
      mediaType: pool.length && this.store.get(pool[0] as string)?.mediaType === 'Audio' ? 'Audio' : 'Video',
      dateCreated: created,
      dateLastSaved: created,
      genres: [],
      images: [],
      revision: 0,
      path: `${lib.locations[0]}/${name}/playlist.xml`,
      memberIds: members,
      runTimeTicks: members.reduce((s, id) => s + (this.store.get(id)?.runTimeTicks ?? 0), 0),
    });
  }
}

export function sortName(name: string): string {
  return name.toLowerCase().replace(/^(the|a|an) /, '');
}
