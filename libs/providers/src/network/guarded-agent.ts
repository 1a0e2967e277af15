import { lookup as dnsLookup } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { assertPublicTarget, isMetadataAddress, isNonPublicAddress, SsrfBlockedError } from './ssrf-guard';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * A `lookup` for sockets that refuses what the SSRF guard refuses: the connection goes to an
 * address this function checked, so DNS cannot change between check and connect. IP literals
 * never reach a lookup: check those with assertPublicTarget before the request.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number } | number | LookupCallback, callback?: LookupCallback): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const wantAll = typeof options === 'object' && options?.all === true;
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return cb(error, '');
      const refused = addresses.find((a) => isMetadataAddress(a.address) || (!allowPrivate && isNonPublicAddress(a.address)));
      if (refused) {
        const reason = isMetadataAddress(refused.address) ? 'the cloud metadata address' : 'the non-public address';
        return cb(Object.assign(new SsrfBlockedError(hostname, `${hostname} resolves to ${reason} ${refused.address}`), { code: 'ESSRF' }), '');
      }
      if (wantAll) return cb(null, addresses);
      cb(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface GuardedAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/** Keep-alive agents whose connections pass the guard (https trusting `ca` when given); for vendor SDKs that take an agent. */
export function guardedAgents(allowPrivate: boolean, ca?: string[]): GuardedAgents {
  const lookup = guardedLookup(allowPrivate) as never;
  return {
    http: new HttpAgent({ keepAlive: true, lookup }),
    https: new HttpsAgent({ keepAlive: true, lookup, ...(ca ? { ca } : {}) }),
  };
}

/**
 * The request handler for AWS SDK clients (SES, SNS): guarded agents, no SDK-side timeout
 * beyond ours. Check the endpoint itself with `assertVendorEndpoint` before each call, since an
 * IP-literal endpoint is dialled without a lookup.
 */
export function guardedAwsRequestHandler(allowPrivate: boolean, timeoutMs: number, ca?: string[]): NodeHttpHandler {
  const agents = guardedAgents(allowPrivate, ca);
  // Without throwOnRequestTimeout the handler only warns when a vendor never answers.
  return new NodeHttpHandler({
    httpAgent: agents.http,
    httpsAgent: agents.https,
    requestTimeout: timeoutMs,
    connectionTimeout: timeoutMs,
    throwOnRequestTimeout: true,
  });
}

/** The endpoint an SDK will dial passes the guard (literal addresses included). */
export async function assertVendorEndpoint(url: string, allowPrivate: boolean): Promise<void> {
  const hostname = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  // Names are checked at connect time by the guarded lookup; literals only here.
  if (isIP(hostname)) await assertPublicTarget(url, { allowPrivate });
  else if (!/^https?:$/.test(new URL(url).protocol)) await assertPublicTarget(url, { allowPrivate });
}
