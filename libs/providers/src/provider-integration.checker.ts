import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { isProviderError } from '@app/delivery';
import type { Integration, IntegrationCheckResult, IntegrationChecker } from '@app/integrations';
import { createProviderRegistry, InMemoryProviderRegistry } from './provider.registry';

const CHECK_TIMEOUT_MS = 15_000;

/**
 * `check: true` on an integration: the adapter's live, side-effect-free check where its vendor
 * offers one (docs/providers.md lists which). Providers without one pass, as in Novu; credentials the adapter
 * cannot parse fail with the adapter's own message.
 */
@Injectable()
export class ProviderIntegrationChecker implements IntegrationChecker {
  private readonly registry: InMemoryProviderRegistry;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.registry = createProviderRegistry({ allowPrivateNetworkTargets: config.allowPrivateNetworkTargets });
  }

  async check(integration: Integration): Promise<IntegrationCheckResult> {
    if (integration.channel === 'in_app') return { ok: true };
    const provider = this.registry.get(integration.channel, integration.providerId);
    if (!provider?.check) return { ok: true };
    try {
      return await provider.check(integration.credentials, AbortSignal.timeout(CHECK_TIMEOUT_MS));
    } catch (error) {
      if (isProviderError(error)) return { ok: false, message: error.message };
      throw error;
    }
  }
}
