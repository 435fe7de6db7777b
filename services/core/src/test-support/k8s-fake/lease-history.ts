import type { FakeKubeApiServer } from './fake-kube-api-server.js';

export interface LeaseHolderChange {
  from: string;
  to: string;
  /** Time between the previous holder's last successful write and the new holder's first. */
  gapMs: number;
  previousDurationMs: number;
  /** The previous holder handed the Lease back (empty holder) before the change. */
  released: boolean;
}

/**
 * Holder changes of a Lease, from the fake server's request log (successful writes only). Two leaders at
 * once would show as a change whose gap is shorter than the previous holder's Lease duration without a release.
 */
export function leaseHolderChanges(server: FakeKubeApiServer, leaseName: string): LeaseHolderChange[] {
  const writes = server.requests.filter(
    (entry) =>
      entry.plural === 'leases' &&
      entry.object?.metadata.name === leaseName &&
      (entry.status === 200 || entry.status === 201) &&
      entry.verb !== 'get',
  );
  const changes: LeaseHolderChange[] = [];
  let previous: { holder: string; at: number; durationMs: number } | undefined;
  let releasedSince = false;
  for (const write of writes) {
    const spec = write.object?.spec as { holderIdentity?: string; leaseDurationSeconds?: number } | undefined;
    const holder = spec?.holderIdentity ?? '';
    if (holder === '') {
      releasedSince = true;
      continue;
    }
    if (previous && previous.holder !== holder)
      changes.push({
        from: previous.holder,
        to: holder,
        gapMs: write.at - previous.at,
        previousDurationMs: previous.durationMs,
        released: releasedSince,
      });
    previous = { holder, at: write.at, durationMs: (spec?.leaseDurationSeconds ?? 0) * 1000 };
    releasedSince = false;
  }
  return changes;
}

/**
 * Failover time as the fake server saw it: from `since` (when the leader was killed) to the first successful
 * write of the Lease by another holder (the new leader's first leader action); undefined while none happened.
 */
export function failoverMs(server: FakeKubeApiServer, leaseName: string, killedHolder: string, since: number): number | undefined {
  const taken = server.requests.find((entry) => {
    if (entry.plural !== 'leases' || entry.object?.metadata.name !== leaseName || entry.at < since) return false;
    if ((entry.status !== 200 && entry.status !== 201) || entry.verb === 'get') return false;
    const holder = (entry.object?.spec as { holderIdentity?: string } | undefined)?.holderIdentity ?? '';
    return holder !== '' && holder !== killedHolder;
  });
  return taken ? taken.at - since : undefined;
}
