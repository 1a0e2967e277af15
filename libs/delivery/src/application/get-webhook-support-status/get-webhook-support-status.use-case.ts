import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_REPOSITORY, Integration, IntegrationRepository, findProvider } from '@app/integrations';
import { EnvironmentScope, InvalidRequestError, NotFoundError, isId } from '@app/kernel';
import { VENDOR_EVENT_SOURCES, VendorEventSources } from '../../ports/vendor-events.port';

export class WebhookIntegrationNotFoundError extends NotFoundError {
  constructor(providerOrIntegrationId: string) {
    super('integration_not_found', `Integration for ${providerOrIntegrationId} was not found`);
  }
}

export class WebhookIntegrationWithoutCredentialsError extends InvalidRequestError {
  constructor(integrationId: string) {
    super('integration_without_credentials', `Integration ${integrationId} doesn't have credentials set up`);
  }
}

export class WebhookChannelNotSupportedError extends InvalidRequestError {
  constructor(providerId: string, channel: string) {
    super('webhook_channel_not_supported', `Webhook for ${providerId}-${channel} is not supported yet`);
  }
}

const hasCredentials = (integration: Integration) => Object.values(integration.credentials).some((value) => value !== undefined && value !== '');

/**
 * GET /v1/integrations/webhook/provider/{providerOrIntegrationId}/status (Novu's rules): whether
 * the vendor's delivery events can come in for that integration, i.e. whether this service reads
 * the provider's event webhook. A provider id picks the environment's first integration of that
 * provider with credentials; anything else is taken as an integration `_id`.
 */
@Injectable()
export class GetWebhookSupportStatus {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(VENDOR_EVENT_SOURCES) private readonly sources: VendorEventSources,
  ) {}

  async execute({ scope, providerOrIntegrationId }: { scope: EnvironmentScope; providerOrIntegrationId: string }): Promise<boolean> {
    const integration = findProvider(providerOrIntegrationId)
      ? (await this.integrations.list(scope)).find((i) => i.providerId === providerOrIntegrationId && hasCredentials(i))
      : isId(providerOrIntegrationId)
        ? await this.integrations.findById(scope, providerOrIntegrationId)
        : null;
    if (!integration) throw new WebhookIntegrationNotFoundError(providerOrIntegrationId);
    if (!hasCredentials(integration)) throw new WebhookIntegrationWithoutCredentialsError(integration.id);
    if (integration.channel !== 'email' && integration.channel !== 'sms')
      throw new WebhookChannelNotSupportedError(integration.providerId, integration.channel);
    return this.sources.get(integration.providerId) !== undefined;
  }
}
