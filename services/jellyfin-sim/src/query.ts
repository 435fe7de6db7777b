/**
 * The /Items query engine. It picks the narrowest index for the candidate set (ids, a folder's children, a
 * library+kind, a kind), filters, sorts, and caches the sorted full result per query signature and store
 * version, so paging through a large library does not redo the work for every page.
 */
import type { Flavor } from './library/generate.js';
import type { Store } from './library/store.js';
import type { ItemKind, SimItem, SimUser } from './library/types.js';
import { normalizeId, parseDate } from './wire.js';
import type { Params } from './http/params.js';

export const BASE_ITEM_KINDS = [
  'AggregateFolder',
  'Audio',
  'AudioBook',
  'BasePluginFolder',
  'Book',
  'BoxSet',
  'Channel',
  'ChannelFolderItem',
  'CollectionFolder',
  'Episode',
  'Folder',
  'Genre',
  'ManualPlaylistsFolder',
  'Movie',
  'LiveTvChannel',
  'LiveTvProgram',
  'MusicAlbum',
  'MusicArtist',
  'MusicGenre',
  'MusicVideo',
  'Person',
  'Photo',
  'PhotoAlbum',
  'Playlist',
  'PlaylistsFolder',
  'Program',
  'Recording',
  'Season',
  'Series',
  'Studio',
  'Trailer',
  'TvChannel',
  'TvProgram',
  'UserRootFolder',
  'UserView',
  'Video',
  'Year',
];
const KIND_BY_LOWER = new Map(BASE_ITEM_KINDS.map((k) => [k.toLowerCase(), k]));

/** Parses a BaseItemKind list; unknown values are dropped silently, as the model binder does. */
export function parseKinds(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const k = KIND_BY_LOWER.get(v.toLowerCase());
    if (k) out.push(k === 'ManualPlaylistsFolder' ? 'PlaylistsFolder' : k);
  }
  return out;
}

const NON_BROWSABLE = new Set<ItemKind>(['CollectionFolder', 'PlaylistsFolder']);

export interface ItemQuery {
  user?: SimUser;
  parentId?: string;
  recursive: boolean;
  includeKinds: string[];
  excludeKinds: string[];
  mediaTypes: string[];
  ids: string[];
  excludeIds: string[];
  isPlayed?: boolean;
  isFavorite?: boolean;
  isResumable?: boolean;
  isFolder?: boolean;
  searchTerm?: string;
  nameStartsWith?: string;
  minDateLastSaved?: number;
  minPremiereDate?: number;
  maxPremiereDate?: number;
  years: number[];
  genres: string[];
  seriesStatus: string[];
  parentIndexNumber?: number;
  indexNumber?: number;
  isHd?: boolean;
  is4k?: boolean;
  artistIds: string[];
  albumIds: string[];
  sortBy: string[];
  sortOrder: string[];
}

export function parseItemQuery(p: Params, user: SimUser | undefined, pathParentId?: string): ItemQuery {
  const filters = p.list('filters').map((f) => f.toLowerCase());
  let isPlayed = p.bool('isPlayed');
  if (filters.includes('isplayed')) isPlayed = true;
  if (filters.includes('isunplayed')) isPlayed = false;
  let isFolder = p.bool('isFolder');
  if (filters.includes('isfolder')) isFolder = true;
  if (filters.includes('isnotfolder')) isFolder = false;
  const parent = pathParentId ?? p.get('parentId');
  return {
    user,
    parentId: parent ? normalizeId(parent) : undefined,
    recursive: p.bool('recursive') ?? false,
    includeKinds: parseKinds(p.list('includeItemTypes')),
    excludeKinds: parseKinds(p.list('excludeItemTypes')),
    mediaTypes: p.list('mediaTypes').map((m) => m.toLowerCase()),
    ids: p.list('ids').map(normalizeId),
    excludeIds: p.list('excludeItemIds').map(normalizeId),
    isPlayed,
    isFavorite: filters.includes('isfavorite') || filters.includes('isfavoriteorlikes') ? true : p.bool('isFavorite'),
    isResumable: filters.includes('isresumable') ? true : undefined,
    isFolder,
    searchTerm: p.get('searchTerm')?.toLowerCase(),
    nameStartsWith: p.get('nameStartsWith')?.toLowerCase(),
    minDateLastSaved: parseDate(p.get('minDateLastSaved')),
    minPremiereDate: parseDate(p.get('minPremiereDate')),
    maxPremiereDate: parseDate(p.get('maxPremiereDate')),
    years: p
      .list('years')
      .map(Number)
      .filter((n) => Number.isFinite(n)),
    genres: p
      .list('genres')
      .flatMap((g) => g.split('|'))
      .map((g) => g.toLowerCase()),
    seriesStatus: p.list('seriesStatus').map((s) => s.toLowerCase()),
    parentIndexNumber: p.int('parentIndexNumber'),
    indexNumber: p.int('indexNumber'),
    isHd: p.bool('isHd'),
    is4k: p.bool('is4K'),
    artistIds: p.list('artistIds').map(normalizeId),
    albumIds: p.list('albumIds').map(normalizeId),
    sortBy: p.list('sortBy'),
    sortOrder: p.list('sortOrder').map((s) => s.toLowerCase()),
  };
}

export class ItemQueryEngine {
  private cache = new Map<string, string[]>();
  private cacheVersion = -1;
  /** Bumped on user-data changes (plays), which affect isPlayed/PlayCount/DatePlayed queries. */
  userDataVersion = 0;

  constructor(
    private readonly store: Store,
    private readonly flavor: Flavor,
  ) {}

  /** Libraries (CollectionFolder / playlists folder ids) the user may see. */
  visibleLibraries(user: SimUser | undefined): Set<string> {
    const all = this.store.libraries.map((l) => l.id);
    if (!user || user.enableAllFolders) return new Set(all);
    const allowed = new Set(user.enabledFolders);
    for (const l of this.store.libraries) if (l.collectionType === 'boxsets' || l.collectionType === 'playlists') allowed.add(l.id);
    return allowed;
  }

  isVisible(item: SimItem, user: SimUser | undefined): boolean {
    if (!user || user.enableAllFolders) return true;
    return !item.libraryId || this.visibleLibraries(user).has(item.libraryId);
  }

  /** All matching ids in result order (cached). */
  run(q: ItemQuery): string[] {
    if (this.cacheVersion !== this.store.version) {
      this.cache.clear();
      this.cacheVersion = this.store.version;
    }
    const usesUserData =
      q.isPlayed !== undefined ||
      q.isFavorite !== undefined ||
      q.isResumable !== undefined ||
      q.sortBy.some((s) => /played|playcount|favorite/i.test(s));
    const key = JSON.stringify({
      ...q,
      user: q.user?.id,
      libs: q.user && !q.user.enableAllFolders ? q.user.enabledFolders : undefined,
      ud: usesUserData ? this.userDataVersion : 0,
    });
    const hit = this.cache.get(key);
    if (hit) return hit;
    const result = this.sort(this.filter(q), q);
    if (this.cache.size > 200) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  private candidates(q: ItemQuery): { ids: Iterable<string>; kindsApplied: boolean } {
    const s = this.store;
    const kinds = q.includeKinds;
    if (q.ids.length) return { ids: q.ids, kindsApplied: false };
    // includeItemTypes=BoxSet alone ignores parentId (ItemsController).
    const parentId = kinds.length === 1 && kinds[0] === 'BoxSet' ? undefined : q.parentId;
    if (parentId) {
      const parent = s.get(parentId);
      if (!parent) return { ids: [], kindsApplied: false };
      if (parent.memberIds) return { ids: parent.memberIds, kindsApplied: false };
      if (!q.recursive) return { ids: s.childIds(parentId), kindsApplied: false };
      if (parent.kind === 'CollectionFolder' || parent.kind === 'PlaylistsFolder') {
        if (kinds.length) {
          const byKind = s.byLibraryKind.get(parentId);
          return { ids: concat(kinds.map((k) => byKind?.get(k as ItemKind))), kindsApplied: true };
        }
        return { ids: s.byLibrary.get(parentId) ?? [], kindsApplied: false };
      }
      return { ids: s.descendants(parentId), kindsApplied: false };
    }
    if (!q.recursive) {
      return { ids: s.libraries.map((l) => l.id), kindsApplied: false };
    }
    if (kinds.length) return { ids: concat(kinds.map((k) => s.byKind.get(k as ItemKind))), kindsApplied: true };
    const all: Set<string>[] = [];
    for (const [kind, set] of s.byKind) if (!NON_BROWSABLE.has(kind)) all.push(set);
    return { ids: concat(all), kindsApplied: false };
  }

  private filter(q: ItemQuery): string[] {
    const s = this.store;
    const { ids, kindsApplied } = this.candidates(q);
    const include = !kindsApplied && q.includeKinds.length ? new Set(q.includeKinds) : undefined;
    const exclude = q.excludeKinds.length ? new Set(q.excludeKinds) : undefined;
    const visible = q.user && !q.user.enableAllFolders ? this.visibleLibraries(q.user) : undefined;
    const excludeIds = q.excludeIds.length ? new Set(q.excludeIds) : undefined;
    const mediaTypes = q.mediaTypes.length ? new Set(q.mediaTypes) : undefined;
    const years = q.years.length ? new Set(q.years) : undefined;
    const uid = q.user?.id;
    const trivial =
      !include &&
      !exclude &&
      !visible &&
      !excludeIds &&
      !mediaTypes &&
      !years &&
      q.isPlayed === undefined &&
      q.isFavorite === undefined &&
      q.isResumable === undefined &&
      q.isFolder === undefined &&
      !q.searchTerm &&
      !q.nameStartsWith &&
      q.minDateLastSaved === undefined &&
      q.minPremiereDate === undefined &&
      q.maxPremiereDate === undefined &&
      !q.genres.length &&
      !q.seriesStatus.length &&
      q.parentIndexNumber === undefined &&
      q.indexNumber === undefined &&
      q.isHd === undefined &&
      q.is4k === undefined &&
      !q.artistIds.length &&
      !q.albumIds.length &&
      q.ids.length === 0;
    if (trivial) return Array.from(ids);
    const out: string[] = [];
    for (const id of ids) {
      const it = s.get(id);
      if (!it) continue;
      if (include && !include.has(it.kind)) continue;
      if (exclude && exclude.has(it.kind)) continue;
      if (visible && it.libraryId && !visible.has(it.libraryId)) continue;
      if (excludeIds?.has(id)) continue;
      if (mediaTypes && !mediaTypes.has(it.mediaType.toLowerCase())) continue;
      if (years && (it.productionYear === undefined || !years.has(it.productionYear))) continue;
      if (q.isFolder !== undefined && it.isFolder !== q.isFolder) continue;
      if (q.searchTerm && !it.name.toLowerCase().includes(q.searchTerm)) continue;
      if (q.nameStartsWith && !it.sortName.startsWith(q.nameStartsWith)) continue;
      if (q.minDateLastSaved !== undefined && it.dateLastSaved < q.minDateLastSaved) continue;
      if (q.minPremiereDate !== undefined && (it.premiereDate === undefined || it.premiereDate < q.minPremiereDate)) continue;
      if (q.maxPremiereDate !== undefined && (it.premiereDate === undefined || it.premiereDate > q.maxPremiereDate)) continue;
      if (q.genres.length && !it.genres.some((g) => q.genres.includes(g.toLowerCase()))) continue;
      if (q.seriesStatus.length && (!it.status || !q.seriesStatus.includes(it.status.toLowerCase()))) continue;
      if (q.parentIndexNumber !== undefined && it.parentIndexNumber !== q.parentIndexNumber) continue;
      if (q.indexNumber !== undefined && it.indexNumber !== q.indexNumber) continue;
      if (q.isHd !== undefined && (!it.media?.video || it.media.video.height >= 720 !== q.isHd)) continue;
      if (q.is4k !== undefined && (!it.media?.video || it.media.video.width >= 3800 !== q.is4k)) continue;
      if (q.artistIds.length && !(it.artistIds ?? []).some((a) => q.artistIds.includes(a))) continue;
      if (q.albumIds.length && (!it.albumId || !q.albumIds.includes(it.albumId))) continue;
      if (uid && (q.isPlayed !== undefined || q.isFavorite !== undefined || q.isResumable !== undefined)) {
        const d = s.userDataFor(uid, id);
        if (q.isPlayed !== undefined && (d?.played ?? false) !== q.isPlayed) continue;
        if (q.isFavorite !== undefined && (d?.isFavorite ?? false) !== q.isFavorite) continue;
        if (q.isResumable && !((d?.playbackPositionTicks ?? 0) > 0)) continue;
      }
      out.push(id);
    }
    return out;
  }

  private sort(ids: string[], q: ItemQuery): string[] {
    const keys = q.sortBy.map((k) => k.toLowerCase()).filter((k) => k !== 'default');
    if (!keys.length) return ids;
    const s = this.store;
    const uid = q.user?.id;
    const items = ids.map((id) => s.get(id) as SimItem);
    const getters = keys.map((k) => sortGetter(k, s, uid));
    const dirs = keys.map((_, i) => ((q.sortOrder[i] ?? q.sortOrder[0] ?? 'ascending') === 'descending' ? -1 : 1));
    const seq = s.seq;
    const vals = getters.map((g) => items.map((it) => g(it)));
    const order = items.map((_, i) => i);
    order.sort((a, b) => {
      for (let k = 0; k < vals.length; k++) {
        const col = vals[k] as (string | number)[];
        const va = col[a] as string | number;
        const vb = col[b] as string | number;
        if (va < vb) return -(dirs[k] as number);
        if (va > vb) return dirs[k] as number;
      }
      return (seq.get(ids[a] as string) ?? 0) - (seq.get(ids[b] as string) ?? 0);
    });
    return order.map((i) => ids[i] as string);
  }
}

function sortGetter(key: string, s: Store, uid: string | undefined): (it: SimItem) => string | number {
  switch (key) {
    case 'sortname':
      return (it) => it.sortName;
    case 'name':
      return (it) => it.name.toLowerCase();
    case 'datecreated':
      return (it) => it.dateCreated;
    case 'premieredate':
      return (it) => it.premiereDate ?? 0;
    case 'productionyear':
      return (it) => it.productionYear ?? 0;
    case 'communityrating':
      return (it) => it.communityRating ?? 0;
    case 'criticrating':
      return (it) => it.criticRating ?? 0;
    case 'officialrating':
      return (it) => it.officialRating ?? '';
    case 'runtime':
      return (it) => it.runTimeTicks ?? 0;
    case 'indexnumber':
      return (it) => it.indexNumber ?? 0;
    case 'parentindexnumber':
      return (it) => it.parentIndexNumber ?? 0;
    case 'seriessortname':
      return (it) => (it.seriesName ?? '').toLowerCase();
    case 'album':
      return (it) => (it.album ?? '').toLowerCase();
    case 'albumartist':
    case 'artist':
      return (it) => (it.albumArtist ?? '').toLowerCase();
    case 'isfolder':
      return (it) => (it.isFolder ? 1 : 0);
    case 'datelastcontentadded':
      return (it) => it.dateLastSaved;
    case 'videobitrate':
      return (it) => it.media?.bitrate ?? 0;
    case 'random':
      return (it) => hash(it.id);
    case 'dateplayed':
      return (it) => (uid ? (s.userDataFor(uid, it.id)?.lastPlayedDate ?? 0) : 0);
    case 'playcount':
      return (it) => (uid ? (s.userDataFor(uid, it.id)?.playCount ?? 0) : 0);
    case 'isplayed':
      return (it) => (uid && s.userDataFor(uid, it.id)?.played ? 1 : 0);
    case 'isunplayed':
      return (it) => (uid && s.userDataFor(uid, it.id)?.played ? 0 : 1);
    case 'isfavoriteorliked':
      return (it) => (uid && s.userDataFor(uid, it.id)?.isFavorite ? 1 : 0);
    default:
      return () => 0;
  }
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

function concat(sets: (Iterable<string> | undefined)[]): string[] {
  const out: string[] = [];
  for (const set of sets) if (set) for (const id of set) out.push(id);
  return out;
}
