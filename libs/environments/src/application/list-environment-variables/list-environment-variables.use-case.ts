import { Inject, Injectable } from '@nestjs/common';
import { AuthenticatedScope } from '../authenticate-api-key/authenticate-api-key.use-case';
import { EnvironmentVariable, shownVariable } from '../../domain/environment-variable';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository } from '../../ports/environment-variable.repository.port';

/** GET /v1/environment-variables: the organization's, newest first, each with the caller's environment's value (secrets masked). */
@Injectable()
export class ListEnvironmentVariables {
  constructor(@Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository) {}

  async execute(caller: AuthenticatedScope, search?: string): Promise<EnvironmentVariable[]> {
    return (await this.variables.list(caller.organizationId, search)).map((variable) => shownVariable(variable, caller.environmentId));
  }
}
