/**
 * The media-server REST surface (§3), for both flavors, one controller per file. Routes are matched in this
 * order (a fixed path such as /Items/Counts before /Items/{itemId}); routes of the other flavor are left out.
 */
import type { SimulatorState } from '../sim.js';
import { adminRoutes } from './admin-routes.js';
import { imageRoutes } from './image-routes.js';
import { itemRoutes } from './item-routes.js';
import { libraryRoutes } from './library-routes.js';
import { createRouteKit } from './route-kit.js';
import type { Route } from './route.js';
import { sessionRoutes } from './session-routes.js';
import { systemRoutes } from './system-routes.js';
import { userRoutes } from './user-routes.js';

export type { AuthLevel, Route } from './route.js';

export function buildRoutes(st: SimulatorState): Route[] {
  const kit = createRouteKit(st);
  const routes = [systemRoutes, userRoutes, libraryRoutes, itemRoutes, sessionRoutes, imageRoutes, adminRoutes].flatMap((controller) =>
    controller(kit),
  );
  return routes.filter((r) => !r.flavors || r.flavors.includes(st.opts.flavor));
}
