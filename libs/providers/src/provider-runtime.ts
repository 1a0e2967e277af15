import { rootCertificates } from 'node:tls';
import { ChannelProvider, DeliveryChannel } from '@app/delivery';
import { CredentialSchema } from './http/credential-schema';
import { VendorHttp } from './http/vendor-http';

export interface ProviderRuntimeOptions {
  /** ALLOW_PRIVATE_NETWORK_TARGETS: webhooks and `baseUrl`s may reach loopback/private addresses. */
  allowPrivateNetworkTargets: boolean;
  /** Per-request ceiling for vendor calls. */
  timeoutMs?: number;
  /** Extra trusted CA certificates (PEM) for vendor TLS, on top of the system's (a private relay; tests). */
  extraCa?: string;
}

/** What every adapter is built with: the guarded HTTP client and the network policy behind it. */
export interface ProviderRuntime {
  http: VendorHttp;
  allowPrivateNetworkTargets: boolean;
  timeoutMs: number;
  /** The CAs vendor TLS connections trust: the system's plus `extraCa`; undefined means the defaults. */
  ca?: string[];
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

export function createProviderRuntime(options: ProviderRuntimeOptions): ProviderRuntime {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  // Node's `ca` option replaces the trusted roots, so extend them explicitly.
  const ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
  const allowPrivateNetworkTargets = options.allowPrivateNetworkTargets;
  return { http: new VendorHttp({ allowPrivateNetworkTargets, timeoutMs, ca }), allowPrivateNetworkTargets, timeoutMs, ca };
}

/** A provider adapter as this library ships it: the delivery port plus the credential schema it parses. */
export interface ProviderAdapter<C extends DeliveryChannel = DeliveryChannel> extends ChannelProvider<C> {
  readonly credentialSchema: CredentialSchema;
}
