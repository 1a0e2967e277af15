import { VendorHttp } from './http/vendor-http';

export interface ProviderRuntimeOptions {
  /** ALLOW_PRIVATE_NETWORK_TARGETS: webhooks and `baseUrl`s may reach loopback/private addresses. */
  allowPrivateNetworkTargets: boolean;
  /** Per-request ceiling for vendor calls. */
  timeoutMs?: number;
}

/** What every adapter is built with: the guarded HTTP client and the network policy behind it. */
export interface ProviderRuntime {
  http: VendorHttp;
  allowPrivateNetworkTargets: boolean;
  timeoutMs: number;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

export function createProviderRuntime(options: ProviderRuntimeOptions): ProviderRuntime {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  return { http: new VendorHttp({ allowPrivateNetworkTargets: options.allowPrivateNetworkTargets, timeoutMs }), allowPrivateNetworkTargets: options.allowPrivateNetworkTargets, timeoutMs };
}
