import type { Runtime } from './runtime.js';

/** A part of Reelstat that a process can run: api, scheduler, dispatcher, operator. */
export interface Role {
  readonly name: string;
  /** Starts the role; the returned function stops it, finishing work in progress. */
  start(runtime: Runtime): Promise<() => Promise<void>>;
  /** Extra readiness checks of this role (e.g. "leader state known"). */
  readiness?(): Record<string, boolean>;
}
