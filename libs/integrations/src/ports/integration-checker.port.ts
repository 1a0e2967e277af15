import { Integration } from '../domain/integration';

export interface IntegrationCheckResult {
  ok: boolean;
  /** The provider's own words when the check failed. */
  message?: string;
}

/** Live check of an integration's credentials (`check: true`), where the provider has one. */
export interface IntegrationChecker {
  check(integration: Integration): Promise<IntegrationCheckResult>;
}
export const INTEGRATION_CHECKER = Symbol('IntegrationChecker');
