import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { WebhookEndpointNotFoundError } from '../../domain/errors';
import { newSigningSecret } from '../../domain/standard-webhooks';
import { WebhookEndpoint, rotateSecrets } from '../../domain/webhook-endpoint';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import { GetWebhookEndpoint } from '../get-endpoint/get-webhook-endpoint.use-case';

/** A new secret signs from now on; the previous one keeps signing beside it for 24 h (two v1 signatures), so receivers can switch without losing events. */
@Injectable()
export class RotateWebhookSecret {
  constructor(
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly get: GetWebhookEndpoint,
  ) {}

  async execute(command: { scope: EnvironmentScope; id: string }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const endpoint = await this.get.execute(command);
    const now = this.clock.now();
    const secret = newSigningSecret();
    const updated = await this.endpoints.update(command.scope, command.id, { secrets: rotateSecrets(endpoint.secrets, secret, now) }, now);
    if (!updated) throw new WebhookEndpointNotFoundError(command.id);
    return { endpoint: updated, secret };
  }
}
