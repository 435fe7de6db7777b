/**
 * SPEC.md "Item not found" flow: fetch one item the database does not have (yet), with the parents it hangs
 * from (season, series, album…), and store them under the library they belong to.
 */
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import { isMediaServerError } from '../media-server/media-server-error.js';
import type { BaseItemDto } from '../media-server/schemas/item.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import { IGNORED_ITEM_TYPES, itemPageRows, SYNC_ITEM_FIELDS } from './item-rows.js';
import { SyncRepository } from './sync-repository.js';

/** Deep enough for Library → Artist → Album → Track, or folder-structured libraries. */
const MAX_DEPTH = 12;

export interface FetchedItem {
  Id: string;
  Name: string;
  Type: string;
  LibraryId: string;
  /** The item and the missing parents that were stored. */
  stored: number;
}

export async function fetchItem(db: Database, link: MediaServerLink, client: MediaServerClient, itemId: string): Promise<FetchedItem> {
  const repo = new SyncRepository(db);
  const libraries = new Map((await repo.libraries(link.id)).map((l) => [l.id, l]));
  if (libraries.size === 0) {
    throw AppError.conflict('The libraries of this media server are not known yet: run a full sync first');
  }
  const item = await getOne(client, itemId);
  if (IGNORED_ITEM_TYPES.includes(item.Type)) throw AppError.badRequest(`${item.Type} items are not synced`);

  // Walk up the parents until one is a library or an item already stored (whose library we know).
  const chain: BaseItemDto[] = [item];
  let libraryId: string | undefined;
  let parentId = item.ParentId ?? item.SeasonId ?? item.SeriesId ?? item.AlbumId;
  for (let depth = 0; parentId && depth < MAX_DEPTH; depth++) {
    if (libraries.has(parentId)) {
      libraryId = parentId;
      break;
    }
    const [stored] = await repo.existingItems(link.id, [parentId]);
    if (stored?.library_id) {
      libraryId = stored.library_id;
      break;
    }
    const parent = await getOne(client, parentId);
    chain.push(parent);
    parentId = parent.ParentId;
  }
  if (!libraryId) throw AppError.notFound(`Item ${itemId} is not in any library Reelstat knows`);
  const library = libraries.get(libraryId);
  if (library && !library.tracked) throw AppError.conflict(`Item ${itemId} is in the library ${library.name}, which is not tracked`);
  // Parents first, so that names copied onto children can be derived from stored rows.
  const rows = itemPageRows(link.id, libraryId, chain.filter((i) => !IGNORED_ITEM_TYPES.includes(i.Type)).reverse());
  await repo.writeItems(rows);
  await repo.refreshLibraryCounts(link.id);
  return { Id: item.Id, Name: item.Name ?? '', Type: item.Type, LibraryId: libraryId, stored: rows.items.length };
}

async function getOne(client: MediaServerClient, id: string): Promise<BaseItemDto> {
  try {
    const [found] = await client.getItemsByIds([id], { fields: SYNC_ITEM_FIELDS });
    if (found) return found;
  } catch (error) {
    if (isMediaServerError(error, 'invalid_request')) throw AppError.badRequest(error.message);
    throw asAppError(error);
  }
  throw AppError.notFound(`Item ${id} was not found on the media server`);
}

function asAppError(error: unknown): unknown {
  if (isMediaServerError(error, 'not_found')) return AppError.notFound(error.message);
  if (isMediaServerError(error))
    return new AppError(502, 'media_server_error', `The media server did not answer as expected: ${error.message}`);
  return error;
}
