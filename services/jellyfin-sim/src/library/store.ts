/**
 * In-memory item store with the indexes /Items needs so that a filtered page never scans the whole library:
 * by id, by parent (ordered children), by kind, by library (+kind), and extras by owner.
 * Sets keep insertion order, which is the default (unsorted) order of query results.
 */
import type { ItemKind, Library, SimItem, SimUser, UserItemData } from './types.js';

export class Store {
  readonly items = new Map<string, SimItem>();
  readonly children = new Map<string, Set<string>>();
  readonly byKind = new Map<ItemKind, Set<string>>();
  readonly byLibrary = new Map<string, Set<string>>();
  readonly byLibraryKind = new Map<string, Map<ItemKind, Set<string>>>();
  readonly extrasByOwner = new Map<string, Set<string>>();
  /** Insertion sequence: the default order when no sortBy is given. */
  readonly seq = new Map<string, number>();
  readonly libraries: Library[] = [];
  readonly users = new Map<string, SimUser>();
  /** userId → itemId → data */
  readonly userData = new Map<string, Map<string, UserItemData>>();
  /** Bumped on every change; query caches are keyed on it. */
  version = 0;
  private nextSeq = 0;

  add(item: SimItem): void {
    if (this.items.has(item.id)) throw new Error(`duplicate item id ${item.id}`);
    this.items.set(item.id, item);
    this.seq.set(item.id, this.nextSeq++);
    this.index(item);
    this.version++;
  }

  private index(item: SimItem): void {
    if (item.ownerId) {
      setIn(this.extrasByOwner, item.ownerId, item.id);
      return;
    }
    if (item.parentId) setIn(this.children, item.parentId, item.id);
    setIn(this.byKind, item.kind, item.id);
    if (item.libraryId && item.kind !== 'CollectionFolder' && item.kind !== 'PlaylistsFolder') {
      setIn(this.byLibrary, item.libraryId, item.id);
      let m = this.byLibraryKind.get(item.libraryId);
      if (!m) this.byLibraryKind.set(item.libraryId, (m = new Map()));
      setIn(m, item.kind, item.id);
    }
  }

  private unindex(item: SimItem): void {
    if (item.ownerId) {
      this.extrasByOwner.get(item.ownerId)?.delete(item.id);
      return;
    }
    if (item.parentId) this.children.get(item.parentId)?.delete(item.id);
    this.byKind.get(item.kind)?.delete(item.id);
    if (item.libraryId) {
      this.byLibrary.get(item.libraryId)?.delete(item.id);
      this.byLibraryKind.get(item.libraryId)?.get(item.kind)?.delete(item.id);
    }
  }

  get(id: string): SimItem | undefined {
    return this.items.get(id);
  }

  /** Applies a change; re-indexes when tree fields move. */
  update(id: string, patch: Partial<SimItem>, now: number): SimItem {
    const item = this.items.get(id);
    if (!item) throw new Error(`no item ${id}`);
    this.unindex(item);
    Object.assign(item, patch, { id, dateLastSaved: now, revision: item.revision + 1 });
    this.index(item);
    this.version++;
    return item;
  }

  /** Removes an item, its descendants and its extras. Returns the removed ids. */
  remove(id: string): string[] {
    const removed: string[] = [];
    const visit = (itemId: string): void => {
      const item = this.items.get(itemId);
      if (!item) return;
      for (const c of [...(this.children.get(itemId) ?? [])]) visit(c);
      for (const e of [...(this.extrasByOwner.get(itemId) ?? [])]) visit(e);
      this.unindex(item);
      this.items.delete(itemId);
      this.seq.delete(itemId);
      this.children.delete(itemId);
      this.extrasByOwner.delete(itemId);
      removed.push(itemId);
    };
    visit(id);
    if (removed.length) this.version++;
    return removed;
  }

  childIds(parentId: string): Set<string> {
    return this.children.get(parentId) ?? EMPTY;
  }

  /** All descendants of a folder (depth-first, children in order). */
  descendants(parentId: string): string[] {
    if (this.byLibrary.has(parentId)) return [...(this.byLibrary.get(parentId) ?? EMPTY)];
    const out: string[] = [];
    const walk = (pid: string): void => {
      for (const c of this.childIds(pid)) {
        out.push(c);
        walk(c);
      }
    };
    walk(parentId);
    return out;
  }

  userDataFor(userId: string, itemId: string): UserItemData | undefined {
    return this.userData.get(userId)?.get(itemId);
  }

  ensureUserData(userId: string, itemId: string): UserItemData {
    let m = this.userData.get(userId);
    if (!m) this.userData.set(userId, (m = new Map()));
    let d = m.get(itemId);
    if (!d) m.set(itemId, (d = { playCount: 0, played: false, isFavorite: false, playbackPositionTicks: 0 }));
    return d;
  }

  library(id: string): Library | undefined {
    return this.libraries.find((l) => l.id === id);
  }
}

const EMPTY: Set<string> = new Set();

function setIn<K>(map: Map<K, Set<string>>, key: K, value: string): void {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  s.add(value);
}
