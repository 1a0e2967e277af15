import { Inject, Injectable } from '@nestjs/common';
import { ApiKey, Environment } from '../../domain/environment';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';

export interface EnvironmentListing {
  environment: Environment;
  keys: Pick<ApiKey, 'id' | 'hint' | 'createdAt'>[];
}

@Injectable()
export class ListEnvironments {
  constructor(@Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository) {}

  /** Every environment (the CLI), or one organization's (the API). */
  async execute(organizationId?: string): Promise<EnvironmentListing[]> {
    const environments = await this.environments.listEnvironments(organizationId);
    return Promise.all(
      environments.map(async (environment) => ({
        environment,
        keys: (await this.environments.listApiKeys(environment.id)).map(({ id, hint, createdAt }) => ({ id, hint, createdAt })),
      })),
    );
  }
}
