import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentProvisioner } from '@app/environments';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { generateIdentifier } from '../../domain/identifier';
import { Integration } from '../../domain/integration';
import { NOVU_IN_APP_PROVIDER_ID } from '../../domain/provider-catalogue';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '../../ports/integration.repository.port';

export const DEFAULT_IN_APP_INTEGRATION_NAME = 'Novu In-App';

/** Every new environment gets an active in-app `novu` integration, as in Novu. */
@Injectable()
export class ProvisionEnvironmentIntegrations implements EnvironmentProvisioner {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async provision(scope: EnvironmentScope): Promise<void> {
    await this.execute(scope);
  }

  /** Harmless when the environment already has its in-app integration. */
  async execute(scope: EnvironmentScope): Promise<void> {
    const now = this.clock.now();
    const integration: Integration = {
      id: newId(now.getTime()),
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      name: DEFAULT_IN_APP_INTEGRATION_NAME,
      identifier: generateIdentifier(DEFAULT_IN_APP_INTEGRATION_NAME),
      providerId: NOVU_IN_APP_PROVIDER_ID,
      channel: 'in_app',
      credentials: {},
      configurations: {},
      active: true,
      primary: false,
      priority: 0,
      conditions: [],
      fallbacks: [],
      deleted: false,
      createdAt: now,
      updatedAt: now,
    };
    await this.integrations.insert(integration);
  }
}
