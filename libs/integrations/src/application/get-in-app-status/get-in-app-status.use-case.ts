import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

/** GET /v1/integrations/in-app/status: whether the environment has an active in-app integration. */
@Injectable()
export class GetInAppStatus {
  constructor(@Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository) {}

  async execute({ scope }: { scope: EnvironmentScope }): Promise<boolean> {
    return (await this.integrations.findActive(scope, { channel: 'in_app' })).length > 0;
  }
}
