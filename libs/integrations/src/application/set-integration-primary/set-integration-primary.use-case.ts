import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, isId } from '@app/kernel';
import { ChannelWithoutPrimaryError, IntegrationNotFoundError, IntegrationUpdateConflictError, MalformedIntegrationIdError } from '../../domain/errors';
import { Integration } from '../../domain/integration';
import { assertCredentialsForActive } from '../../domain/integration-validation';
import { channelHasPrimary, nextUpdatedAt } from '../../domain/primary-rules';
import { findProvider } from '../../domain/provider-catalogue';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';
import { rankChannelInStore } from '../rank-channel';

export interface SetIntegrationPrimaryCommand {
  scope: EnvironmentScope;
  id: string;
}

const MAX_ATTEMPTS = 5;

/**
 * POST /v1/integrations/{id}/set-primary (Novu's rule): the integration becomes the active primary
 * of its channel without conditions (they would let it lose the flag at once), every other
 * integration of the channel stops being primary, and the priorities are renumbered with it on top.
 * Only email and sms have a primary (400 otherwise); one that is primary already is answered as it is.
 * An id that is not an id is a 400, as Novu.
 */
@Injectable()
export class SetIntegrationPrimary {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, id }: SetIntegrationPrimaryCommand): Promise<Integration> {
    if (!isId(id)) throw new MalformedIntegrationIdError();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const existing = await this.integrations.findById(scope, id);
      if (!existing) throw new IntegrationNotFoundError(id);
      if (!channelHasPrimary(existing.channel)) throw new ChannelWithoutPrimaryError(existing.channel);
      if (existing.primary) return existing;
      // Becoming active needs what any active integration of the provider needs.
      const provider = findProvider(existing.providerId);
      if (provider && !existing.active) assertCredentialsForActive(provider, existing.credentials);

      const next: Integration = { ...existing, active: true, primary: true, conditions: [], updatedAt: nextUpdatedAt(this.clock.now(), existing.updatedAt) };
      const result = await this.integrations.replace(scope, next, existing.updatedAt);
      if (result !== 'updated') continue; // changed meanwhile: read it again

      await rankChannelInStore(this.integrations, this.clock, scope, existing.channel, { kind: 'primary', id }, id);
      return (await this.integrations.findById(scope, id)) ?? next;
    }
    throw new IntegrationUpdateConflictError(id);
  }
}
