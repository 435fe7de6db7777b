/** /System/Info/Public (anonymous) and /System/Info (authenticated). */
import { z } from 'zod';

/**
 * Jellyfin sends `ProductName: "Jellyfin Server"` and `StartupWizardCompleted`; Emby sends neither but adds
 * `LocalAddresses`/`WanAddress`. `Id` and `Version` are required: without them this is not a media server.
 */
export const publicSystemInfoSchema = z.object({
  Id: z.string().min(1),
  Version: z.string().min(1),
  ServerName: z.string().optional(),
  ProductName: z.string().optional(),
  LocalAddress: z.string().optional(),
  LocalAddresses: z.array(z.string()).optional(),
  WanAddress: z.string().optional(),
  OperatingSystem: z.string().optional(),
  StartupWizardCompleted: z.boolean().optional(),
});
export type PublicSystemInfo = z.infer<typeof publicSystemInfoSchema>;

export const systemInfoSchema = publicSystemInfoSchema.extend({
  OperatingSystemDisplayName: z.string().optional(),
  PackageName: z.string().optional(),
  HasPendingRestart: z.boolean().optional(),
  IsShuttingDown: z.boolean().optional(),
  HasUpdateAvailable: z.boolean().optional(),
  SupportsLibraryMonitor: z.boolean().optional(),
  CanSelfRestart: z.boolean().optional(),
  WebSocketPortNumber: z.number().int().optional(),
  /** Emby only. */
  HttpServerPortNumber: z.number().int().optional(),
  SystemArchitecture: z.string().optional(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;
