import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Runtime } from './runtime.js';

/** A connect-style request handler (an Express router is one), so that core needs no HTTP framework. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * A part of Reelstat that a process can run: api, scheduler, dispatcher, operator. The composition root
 * (services/server) starts the configured roles in the same order for every role:
 * httpHandler → the server listens → attach → migrations → start.
 */
export interface Role {
  readonly name: string;
  /** Requests this role answers under BASE_URL; mounted before the server listens (503 until migrated). */
  httpHandler?(runtime: Runtime): HttpHandler;
  /** Runs once the HTTP server listens, before migrations (e.g. sockets); the returned function detaches. */
  attach?(server: Server, runtime: Runtime): Promise<() => Promise<void>>;
  /** Starts the role; the returned function stops it, finishing work in progress. */
  start(runtime: Runtime): Promise<() => Promise<void>>;
  /** Extra readiness checks of this role (e.g. "leader state known"). */
  readiness?(): Record<string, boolean>;
}
