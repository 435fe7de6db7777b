/** Libraries: virtual and media folders. */
import { itemDto } from '../dto.js';
import { imageTag } from '../images.js';
import type { SimItem } from '../library/types.js';
import { sendJson } from './context.js';
import { route, type Route } from './route.js';
import type { RouteKit } from './route-kit.js';

export function libraryRoutes(kit: RouteKit): Route[] {
  const { st, jf, dtoCtx, queryResult } = kit;
  const virtualFolders = (): Record<string, unknown>[] =>
    st.store.libraries
      .filter((l) => l.virtual)
      .map((l, i) => {
        const v: Record<string, unknown> = {
          Name: l.name,
          Locations: l.locations,
          // VirtualFolderInfo uses CollectionTypeOptions, which has "mixed"; BaseItemDto.CollectionType does not.
          CollectionType: l.collectionType,
          LibraryOptions: {
            Enabled: true,
            EnablePhotos: true,
            EnableRealtimeMonitor: true,
            EnableChapterImageExtraction: false,
            ExtractChapterImagesDuringLibraryScan: false,
            PathInfos: l.locations.map((path) => ({ Path: path })),
            SaveLocalMetadata: false,
            EnableInternetProviders: true,
            EnableAutomaticSeriesGrouping: false,
            EnableEmbeddedTitles: false,
            EnableEmbeddedEpisodeInfos: true,
            AutomaticRefreshIntervalDays: 0,
            PreferredMetadataLanguage: 'en',
            MetadataCountryCode: 'US',
            SeasonZeroDisplayName: 'Specials',
            TypeOptions: [],
          },
          ItemId: l.id,
          PrimaryImageItemId: l.id,
          RefreshStatus: 'Idle',
        };
        if (!jf) Object.assign(v, { Id: l.id, Guid: imageTag(l.id, 'guid', 0) });
        void i;
        return v;
      });

  return [
    route('GET', '/Library/VirtualFolders', 'admin', (c) => sendJson(c.res, 200, virtualFolders()), { flavors: ['jellyfin'] }),
    route(
      'GET',
      '/Library/VirtualFolders/Query',
      'admin',
      (c) => {
        const all = virtualFolders();
        const start = c.params.int('startIndex') ?? 0;
        const limit = c.params.int('limit');
        sendJson(c.res, 200, { Items: all.slice(start, limit === undefined ? undefined : start + limit), TotalRecordCount: all.length });
      },
      { flavors: ['emby'] },
    ),
    route('GET', '/Library/MediaFolders', 'admin', (c) => {
      const folders = st.store.libraries.map((l) => st.store.get(l.id) as SimItem);
      const dctx = dtoCtx(c.params, undefined);
      sendJson(
        c.res,
        200,
        queryResult(
          folders.map((f) => itemDto(f, dctx)),
          folders.length,
          0,
        ),
      );
    }),
  ];
}
