/** System information, ping and configuration. */
import { sendJson, sendText } from './context.js';
import { route, type Route } from './route.js';
import type { RouteKit } from './route-kit.js';

export function systemRoutes(kit: RouteKit): Route[] {
  const { st, jf } = kit;
  const systemInfoPublic = (): Record<string, unknown> => {
    const base = { LocalAddress: st.baseUrl, ServerName: st.opts.serverName, Version: st.version, Id: st.serverId };
    if (jf) return { ...base, ProductName: st.productName, OperatingSystem: 'Linux', StartupWizardCompleted: true };
    return { ...base, LocalAddresses: [st.baseUrl], RemoteAddresses: [] };
  };

  return [
    route('GET', '/System/Info/Public', 'anon', (c) => sendJson(c.res, 200, systemInfoPublic())),
    route('GET', '/System/Info', 'user', (c) => {
      const info: Record<string, unknown> = {
        ...systemInfoPublic(),
        OperatingSystemDisplayName: 'Linux',
        PackageName: jf ? 'reelstat-sim' : undefined,
        HasPendingRestart: false,
        IsShuttingDown: false,
        SupportsLibraryMonitor: true,
        WebSocketPortNumber: Number(new URL(st.baseUrl).port || 80),
        CompletedInstallations: [],
        CanSelfRestart: true,
        CanLaunchWebBrowser: false,
        ProgramDataPath: '/config',
        ItemsByNamePath: '/config/metadata',
        CachePath: '/cache',
        LogPath: '/config/log',
        InternalMetadataPath: '/config/metadata',
        TranscodingTempPath: '/cache/transcodes',
        HasUpdateAvailable: false,
      };
      if (jf)
        Object.assign(info, {
          CastReceiverApplications: [],
          SystemArchitecture: 'X64',
          WebPath: '/usr/share/jellyfin/web',
          EncoderLocation: 'System',
        });
      else
        Object.assign(info, {
          HttpServerPortNumber: Number(new URL(st.baseUrl).port || 80),
          SupportsHttps: false,
          HttpsPortNumber: 8920,
          CanSelfUpdate: false,
          OperatingSystem: 'Linux',
          HasImageEnhancers: false,
          SupportsLocalPortConfiguration: true,
          SupportsWakeServer: false,
          SupportsAutoRunAtStartup: false,
          HardwareAccelerationRequiresPremiere: true,
          WakeOnLanInfo: [],
          SystemUpdateLevel: 'Release',
        });
      sendJson(c.res, 200, info);
    }),
    route(['GET', 'POST'], '/System/Ping', 'anon', (c) =>
      jf ? sendJson(c.res, 200, 'Jellyfin Server') : sendText(c.res, 200, 'Emby Server'),
    ),
    route('GET', '/System/Configuration', 'user', (c) => {
      const conf: Record<string, unknown> = {
        LogFileRetentionDays: 3,
        IsStartupWizardCompleted: true,
        EnableMetrics: false,
        EnableNormalizedItemByNameIds: true,
        IsPortAuthorized: true,
        QuickConnectAvailable: true,
        EnableCaseSensitiveItemIds: true,
        DisableLiveTvChannelUserDataName: true,
        MetadataPath: '/config/metadata',
        PreferredMetadataLanguage: 'en',
        MetadataCountryCode: 'US',
        SortReplaceCharacters: ['.', '+', '%'],
        SortRemoveCharacters: [',', '&', '-', '{', '}', "'"],
        SortRemoveWords: ['the', 'a', 'an'],
        MinResumePct: 5,
        MaxResumePct: 90,
        MinResumeDurationSeconds: 300,
        MinAudiobookResume: 5,
        MaxAudiobookResume: 5,
        InactiveSessionThreshold: 0,
        LibraryMonitorDelay: 60,
        LibraryUpdateDuration: 30,
        ImageSavingConvention: 'Legacy',
        ServerName: st.opts.serverName,
        UICulture: 'en-US',
        SaveMetadataHidden: false,
        RemoteClientBitrateLimit: 0,
        EnableFolderView: false,
        EnableGroupingMoviesIntoCollections: false,
        EnableGroupingShowsIntoCollections: false,
        DisplaySpecialsWithinSeasons: true,
        CodecsUsed: [],
        PluginRepositories: [],
        EnableExternalContentInSuggestions: true,
        ImageExtractionTimeoutMs: 0,
        PathSubstitutions: [],
        EnableSlowResponseWarning: true,
        SlowResponseThresholdMs: 500,
        CorsHosts: ['*'],
        ActivityLogRetentionDays: 30,
        LibraryScanFanoutConcurrency: 0,
        LibraryMetadataRefreshConcurrency: 0,
        AllowClientLogUpload: true,
        DummyChapterDuration: 0,
        ChapterImageResolution: 'MatchSource',
        ParallelImageEncodingLimit: 0,
        CastReceiverApplications: [],
        EnableLegacyAuthorization: st.opts.legacyAuth,
        ContentTypes: [],
        MetadataOptions: [],
      };
      if (!jf)
        for (const k of [
          'EnableLegacyAuthorization',
          'CastReceiverApplications',
          'ChapterImageResolution',
          'DummyChapterDuration',
          'ParallelImageEncodingLimit',
          'AllowClientLogUpload',
          'LibraryScanFanoutConcurrency',
          'LibraryMetadataRefreshConcurrency',
          'QuickConnectAvailable',
          'EnableMetrics',
          'ImageSavingConvention',
          'EnableCaseSensitiveItemIds',
          'DisableLiveTvChannelUserDataName',
          'EnableNormalizedItemByNameIds',
          'IsPortAuthorized',
          'MinAudiobookResume',
          'MaxAudiobookResume',
          'InactiveSessionThreshold',
          'LibraryUpdateDuration',
          'SortReplaceCharacters',
          'SortRemoveCharacters',
          'SortRemoveWords',
          'CorsHosts',
          'ActivityLogRetentionDays',
          'EnableSlowResponseWarning',
          'SlowResponseThresholdMs',
          'EnableExternalContentInSuggestions',
          'ImageExtractionTimeoutMs',
          'CodecsUsed',
          'PluginRepositories',
          'PathSubstitutions',
          'EnableGroupingMoviesIntoCollections',
          'EnableGroupingShowsIntoCollections',
          'DisplaySpecialsWithinSeasons',
          'EnableFolderView',
          'ContentTypes',
          'MetadataOptions',
          'SaveMetadataHidden',
          'LibraryMonitorDelay',
          'IsStartupWizardCompleted',
          'MetadataPath',
          'UICulture',
          'RemoteClientBitrateLimit',
          'LogFileRetentionDays',
        ])
          delete conf[k];
      sendJson(c.res, 200, conf);
    }),
  ];
}
