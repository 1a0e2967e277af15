import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentVariableNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository } from '../../ports/environment-variable.repository.port';

/** DELETE /v1/environment-variables/{key}: the variable and its value in every environment. */
@Injectable()
export class DeleteEnvironmentVariable {
  constructor(@Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository) {}

  async execute(organizationId: string, key: string): Promise<void> {
    if (!(await this.variables.delete(organizationId, key))) throw new EnvironmentVariableNotFoundError(key);
  }
}
