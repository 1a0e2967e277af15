import { Inject, Injectable } from '@nestjs/common';
import { AuthenticatedScope } from '../authenticate-api-key/authenticate-api-key.use-case';
import { EnvironmentVariable, shownVariable } from '../../domain/environment-variable';
import { EnvironmentVariableNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository } from '../../ports/environment-variable.repository.port';

/** GET /v1/environment-variables/{key}, as the caller sees it. */
@Injectable()
export class GetEnvironmentVariable {
  constructor(@Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository) {}

  async execute(caller: AuthenticatedScope, key: string): Promise<EnvironmentVariable> {
    const variable = await this.variables.findByKey(caller.organizationId, key);
    if (!variable) throw new EnvironmentVariableNotFoundError(key);
    return shownVariable(variable, caller.environmentId);
  }
}
