import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/kernel';
import { DEVELOPMENT_ENVIRONMENT, hashApiKey } from '../../domain/environment';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';
import { CreateApiKey } from '../create-api-key/create-api-key.use-case';
import { CreateEnvironment } from '../create-environment/create-environment.use-case';

export interface BootstrapResult {
  /** Set when this call created the organization or the chosen key: the secret to print. */
  createdKey?: { environmentName: string; secret: string };
}

/**
 * First start: one organization with a Development environment and a key. A chosen key
 * (BOOTSTRAP_API_KEY) is also added on later starts if it is missing, so scripts can rely on it.
 */
@Injectable()
export class BootstrapOrganization {
  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly createEnvironment: CreateEnvironment,
    private readonly createApiKey: CreateApiKey,
  ) {}

  async execute(chosenKey?: string): Promise<BootstrapResult> {
    if (await this.environments.claimBootstrap()) {
      const organization = { id: newId(), name: 'Default organization', createdAt: this.clock.now() };
      await this.environments.insertOrganization(organization);
      const environment = await this.createEnvironment.execute({ organizationId: organization.id, name: DEVELOPMENT_ENVIRONMENT });
      const { secret } = await this.createApiKey.execute({ environmentId: environment.id, secret: chosenKey });
      return { createdKey: { environmentName: environment.name, secret } };
    }
    if (chosenKey && !(await this.environments.findApiKeyByHash(hashApiKey(chosenKey)))) {
      const development = await this.waitForDevelopmentEnvironment();
      await this.createApiKey.execute({ environmentId: development.id, secret: chosenKey }).catch(() => undefined);
      return { createdKey: { environmentName: development.name, secret: chosenKey } };
    }
    return {};
  }

  // Another process may be half-way through bootstrapping; give it a moment.
  private async waitForDevelopmentEnvironment() {
    for (let attempt = 0; attempt < 50; attempt++) {
      const [organization] = await this.environments.listOrganizations();
      const environment = organization && (await this.environments.findEnvironmentByName(organization.id, DEVELOPMENT_ENVIRONMENT));
      if (environment) return environment;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('Bootstrap did not finish: no Development environment found');
  }
}
