import type { Condition, ConditionStatus, ConditionType } from './media-stats-server.js';

/**
 * Sets a condition, keeping its lastTransitionTime unless its status changes (the Kubernetes convention),
 * so that writing the same state again changes nothing.
 */
export function setCondition(
  conditions: Condition[],
  type: ConditionType,
  status: ConditionStatus,
  reason: string,
  message: string,
  generation: number,
  now = new Date(),
): Condition[] {
  const previous = conditions.find((condition) => condition.type === type);
  const next: Condition = {
    type,
    status,
    reason,
    message: message.slice(0, 32_000),
    observedGeneration: generation,
    lastTransitionTime: previous && previous.status === status ? previous.lastTransitionTime : now.toISOString(),
  };
  return [...conditions.filter((condition) => condition.type !== type), next].sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
}

const ORDER: ConditionType[] = ['Ready', 'Reachable', 'Synced'];
