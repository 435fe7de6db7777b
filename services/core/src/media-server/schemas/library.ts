/** VirtualFolderInfo: the libraries an administrator configured (Dashboard → Libraries). */
import { z } from 'zod';

export const virtualFolderInfoSchema = z.object({
  Name: z.string().optional(),
  Locations: z.array(z.string()).optional(),
  /** Jellyfin: CollectionTypeOptions (lowercase since 10.9, absent or "mixed" for mixed content). Emby: free string. */
  CollectionType: z.string().optional(),
  ItemId: z.string().optional(),
  /** Emby only (same value as ItemId). */
  Id: z.string().optional(),
  PrimaryImageItemId: z.string().optional(),
  RefreshProgress: z.number().optional(),
  RefreshStatus: z.string().optional(),
});
export type VirtualFolderInfo = z.infer<typeof virtualFolderInfoSchema>;

/** A library as Reelstat uses it: always an id and a name; the collection type as the server wrote it. */
export interface MediaLibrary {
  id: string;
  name: string;
  /** e.g. movies, tvshows, music, musicvideos, homevideos, boxsets, books, mixed; undefined for a mixed library. */
  collectionType: string | undefined;
  locations: string[];
  refreshStatus: string | undefined;
}
