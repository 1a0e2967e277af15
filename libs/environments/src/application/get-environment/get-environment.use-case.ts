import { Inject, Injectable } from '@nestjs/common';
import { Environment } from '../../domain/environment';
import { EnvironmentNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';

/** One environment by id (GET /v1/environments/me: the API key's). */
@Injectable()
export class GetEnvironment {
  constructor(@Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository) {}

  async execute(environmentId: string): Promise<Environment> {
    const environment = await this.environments.findEnvironment(environmentId);
    if (!environment) throw new EnvironmentNotFoundError(environmentId);
    return environment;
  }
}
