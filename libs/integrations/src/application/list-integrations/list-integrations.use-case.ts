import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Integration } from '../../domain/integration';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

/** The environment's integrations, deleted ones left out. */
@Injectable()
export class ListIntegrations {
  constructor(@Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository) {}

  execute(command: { scope: EnvironmentScope }): Promise<Integration[]> {
    return this.integrations.list(command.scope);
  }
}
