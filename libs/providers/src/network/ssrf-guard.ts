import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** A tenant-supplied URL that must not be called (bad scheme, or a non-public address). */
export class SsrfBlockedError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Target ${url} is not allowed: ${reason}`);
    this.name = 'SsrfBlockedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface PublicTarget {
  url: URL;
  /** The host as written (no brackets), for the Host header and TLS servername. */
  hostname: string;
  /** Every address the host resolved to, all checked; connect to the first. */
  addresses: ResolvedAddress[];
}

export interface TargetGuardOptions {
  /** ALLOW_PRIVATE_NETWORK_TARGETS: let loopback and private addresses through (tests, on-prem). */
  allowPrivate: boolean;
  /** DNS resolution, replaceable in tests. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
}

// Everything that is not the public internet: loopback, RFC 1918, CGNAT, link-local (cloud
// metadata 169.254.169.254 and fd00:ec2::254 included), multicast, reserved, documentation,
// benchmarking, unspecified, and IPv6 forms that embed an IPv4 address.
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
// Kept apart: node's BlockList lets an IPv4-mapped rule match every plain IPv4 address.
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local (fd00:ec2::254 metadata included)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED_V6.addSubnet(network, prefix, 'ipv6');
}

// Cloud metadata endpoints hand out credentials: refused even when private targets are allowed.
const METADATA = new BlockList();
METADATA.addAddress('169.254.169.254', 'ipv4'); // AWS, GCP, Azure, OpenStack
METADATA.addAddress('169.254.170.2', 'ipv4'); // AWS ECS task metadata
METADATA.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud
METADATA.addAddress('fd00:ec2::254', 'ipv6'); // AWS over IPv6

export function isMetadataAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return METADATA.check(address, 'ipv4');
  // an IPv4 rule also matches its IPv4-mapped IPv6 form
  if (family === 6) return METADATA.check(address, 'ipv6');
  return false;
}

/** Whether an IP literal is anything but a public unicast address. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  if (family === 6) return IPV4_MAPPED.check(address, 'ipv6') || BLOCKED_V6.check(address, 'ipv6');
  return true; // not an IP at all: refuse
}

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
}

/**
 * Checks a URL before any byte is sent to it: http/https only, the host resolved (all records)
 * and every address public unless `allowPrivate` (cloud metadata addresses are refused always). Connect to the returned addresses (see
 * pinnedLookup) so DNS cannot change between the check and the connection. Call it again for
 * every redirect hop.
 */
export async function assertPublicTarget(rawUrl: string | URL, options: TargetGuardOptions): Promise<PublicTarget> {
  let url: URL;
  try {
    url = new URL(String(rawUrl));
  } catch {
    throw new SsrfBlockedError(String(rawUrl), 'not a valid URL');
  }
  const shown = `${url.protocol}//${url.host}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SsrfBlockedError(shown, `scheme ${url.protocol.replace(/:$/, '')} is not allowed, use http or https`);
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname === '') throw new SsrfBlockedError(shown, 'no host');

  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(hostname);
    } catch (error) {
      throw Object.assign(new Error(`Could not resolve ${hostname}: ${(error as Error).message}`), {
        code: (error as NodeJS.ErrnoException).code ?? 'ENOTFOUND',
      });
    }
    if (addresses.length === 0) throw Object.assign(new Error(`Could not resolve ${hostname}`), { code: 'ENOTFOUND' });
  }
  const metadata = addresses.find((a) => isMetadataAddress(a.address));
  if (metadata) throw new SsrfBlockedError(shown, `${hostname} resolves to the cloud metadata address ${metadata.address}`);
  if (!options.allowPrivate) {
    const blocked = addresses.find((a) => isNonPublicAddress(a.address));
    if (blocked) throw new SsrfBlockedError(shown, `${hostname} resolves to the non-public address ${blocked.address}`);
  }
  return { url, hostname, addresses };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A `lookup` for http.request/net.connect that answers the already-checked address only. */
export function pinnedLookup(target: PublicTarget) {
  const [first] = target.addresses;
  return (_hostname: string, options: { all?: boolean } | number | undefined, callback?: LookupCallback): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    if (typeof options === 'object' && options?.all)
      cb(
        null,
        target.addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else cb(null, first.address, first.family);
  };
}
