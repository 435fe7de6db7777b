import dns from 'node:dns';
import { isIP } from 'node:net';

/**
 * Link-local addresses: where cloud metadata services answer (169.254.169.254, fd00:ec2::254 on AWS IPv6).
 * A webhook URL pointing there could read the host's cloud credentials, so they are refused unless
 * WEBHOOK_ALLOW_LINK_LOCAL is set. LAN and loopback stay allowed: homelab services live there.
 */
export function isLinkLocal(address: string): boolean {
  const version = isIP(address);
  const lower = address.toLowerCase();
  if (version === 4) return lower.startsWith('169.254.');
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return mapped[1]!.startsWith('169.254.');
    return /^fe[89ab]/.test(lower) || lower === 'fd00:ec2::254';
  }
  return false;
}

export class BlockedTargetError extends Error {
  constructor(host: string, address: string) {
    super(`target ${host} resolves to the link-local address ${address}, which is refused (set WEBHOOK_ALLOW_LINK_LOCAL=true to allow it)`);
    this.name = 'BlockedTargetError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for sockets that refuses link-local answers. Checking at connect time (not before) means a
 * name that changes its answer between a check and the connection cannot slip through.
 */
export function guardedLookup(allowLinkLocal: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const blocked = allowLinkLocal ? undefined : addresses.find((entry) => isLinkLocal(entry.address));
      if (blocked) return callback(Object.assign(new BlockedTargetError(hostname, blocked.address), { code: 'EBLOCKED' }), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

/** Literal IP hosts skip DNS, so they are checked here. Null = fine. */
export function literalTargetProblem(hostname: string, allowLinkLocal: boolean): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (!allowLinkLocal && isLinkLocal(bare)) return new BlockedTargetError(bare, bare).message;
  return null;
}
