import type { Role, RoleName } from '@reelstat/core';
import { ApiRole } from '@reelstat/api';
import { SchedulerRole } from '@reelstat/scheduler';
import { DispatcherRole } from '@reelstat/dispatcher';
import { OperatorRole } from '@reelstat/operator';

/** Every role a process can run, by its name in ROLES. The one place that knows all role packages. */
export const roleFactories: Record<RoleName, () => Role> = {
  api: () => new ApiRole(),
  scheduler: () => new SchedulerRole(),
  dispatcher: () => new DispatcherRole(),
  operator: () => new OperatorRole(),
};
