import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Integration } from '../../domain/integration';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

/**
 * Active integrations of the whole organization: the one read that is not scoped to the key's
 * environment, as in Novu's interface (GET /v1/integrations/active).
 */
@Injectable()
export class ListActiveIntegrations {
  constructor(@Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository) {}

  execute(command: { scope: EnvironmentScope }): Promise<Integration[]> {
    return this.integrations.listActiveInOrganization(command.scope.organizationId);
  }
}
