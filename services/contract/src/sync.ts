import { z } from 'zod';

/** An item id as either server writes it: 32 hex (dashes allowed) on Jellyfin, digits on Emby. */
const mediaServerId = z
  .string()
  .trim()
  .regex(
    /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|\d{1,20})$/,
    'must be a media-server id',
  );

export const fetchItemBody = z.object({ itemId: mediaServerId });
export const fetchItemAnswer = z.object({
  message: z.string(),
  item: z.object({ Id: z.string(), Name: z.string(), Type: z.string(), LibraryId: z.string() }),
});

/** Tracked library of SPEC.md §3. */
export const trackedLibrary = z.object({ Id: z.string(), Name: z.string(), CollectionType: z.string(), Tracked: z.boolean() });
export const trackedLibrariesAnswer = z.array(trackedLibrary);
export const setExcludedLibrariesBody = z.object({ libraryID: z.string().trim().min(1, 'is required').max(64) });
