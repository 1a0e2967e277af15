import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, isId } from '@app/kernel';
import { IntegrationNotFoundError } from '../../domain/errors';
import { Integration } from '../../domain/integration';
import { channelHasPrimary } from '../../domain/primary-rules';
import { rankChannelInStore } from '../rank-channel';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

export interface DeleteIntegrationCommand {
  scope: EnvironmentScope;
  id: string;
  /** Who deleted it: the API key's id. */
  deletedBy: string;
}

/** Soft delete, as Novu; answers the integrations the environment still has. */
@Injectable()
export class DeleteIntegration {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, id, deletedBy }: DeleteIntegrationCommand): Promise<Integration[]> {
    if (!isId(id)) throw new IntegrationNotFoundError(id);
    const existing = await this.integrations.findById(scope, id);
    if (!existing || !(await this.integrations.softDelete(scope, id, { deletedAt: this.clock.now(), deletedBy }))) {
      throw new IntegrationNotFoundError(id);
    }
    if (existing.active && channelHasPrimary(existing.channel)) {
      await rankChannelInStore(this.integrations, this.clock, scope, existing.channel, { kind: 'renumber' }, id);
    }
    return this.integrations.list(scope);
  }
}
