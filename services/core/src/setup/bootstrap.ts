import type { Runtime } from '../runtime/runtime.js';
import { linkMediaServer } from './media-server-setup.js';
import { onMediaServerLinked } from './sync-on-link.js';

const RETRY_MS = 30_000;

/**
 * GitOps: the administrator (ADMIN_USERNAME/ADMIN_PASSWORD) and the media-server link
 * (MEDIA_SERVER_URL/MEDIA_SERVER_API_KEY) can come from the environment instead of the setup screens.
 * The admin is created only when none exists; the link is (re)applied when it differs, marked "environment"
 * so the dashboard shows it read-only. A media server that is down at start-up is retried in the background.
 */
export async function applyBootstrapConfiguration(runtime: Runtime): Promise<void> {
  const { config, services, logger } = runtime;
  await services.auth.ensureBootstrapAdmin(config.bootstrapAdmin);
  const wanted = config.bootstrapMediaServer;
  if (!wanted) return;
  const current = await services.mediaServers.getDefault();
  if (current && current.managedBy === 'environment' && current.url === wanted.url.replace(/\/+$/, '') && current.apiKey === wanted.apiKey)
    return;

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async () => {
    try {
      await linkMediaServer(services.mediaServers, { ...wanted, managedBy: 'environment' }, logger);
      await onMediaServerLinked(runtime);
    } catch (error) {
      logger.error(
        { err: (error as Error).message, retryInSeconds: RETRY_MS / 1000 },
        'could not link the media server from MEDIA_SERVER_URL',
      );
      if (!stopped) timer = setTimeout(() => void attempt(), RETRY_MS);
    }
  };
  runtime.onClose(async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  });
  await attempt();
}
