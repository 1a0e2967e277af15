import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import type { Integration, IntegrationCheckResult, IntegrationChecker } from '@app/integrations';
import { NodemailerChecker } from './email/nodemailer.checker';

/**
 * Live checks by provider id. Providers without a check pass (as in Novu, where only email
 * providers have one); more join this table as their adapters arrive.
 */
@Injectable()
export class ProviderIntegrationChecker implements IntegrationChecker {
  private readonly checkers: Record<string, IntegrationChecker>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.checkers = { nodemailer: new NodemailerChecker({ allowPrivateNetworkTargets: config.allowPrivateNetworkTargets }) };
  }

  check(integration: Integration): Promise<IntegrationCheckResult> {
    return this.checkers[integration.providerId]?.check(integration) ?? Promise.resolve({ ok: true });
  }
}
