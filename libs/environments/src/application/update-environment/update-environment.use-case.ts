import { Inject, Injectable } from '@nestjs/common';
import { DEVELOPMENT_ENVIRONMENT, Environment, EnvironmentChanges, parentProblem } from '../../domain/environment';
import { DevelopmentEnvironmentRenameError, EnvironmentNameTakenError, EnvironmentNotFoundError, EnvironmentParentInvalidError } from '../../domain/errors';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';

export interface UpdateEnvironmentCommand {
  /** The caller's organization: any of its environments' keys manages all of them. */
  organizationId: string;
  environmentId: string;
  changes: EnvironmentChanges;
}

/** PUT /v1/environments/{id}: name, colour and parent. */
@Injectable()
export class UpdateEnvironment {
  constructor(@Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository) {}

  async execute({ organizationId, environmentId, changes }: UpdateEnvironmentCommand): Promise<Environment> {
    const environment = await this.environments.findEnvironment(environmentId);
    if (!environment || environment.organizationId !== organizationId) throw new EnvironmentNotFoundError(environmentId);
    if (environment.name === DEVELOPMENT_ENVIRONMENT && changes.name !== undefined && changes.name !== environment.name) {
      throw new DevelopmentEnvironmentRenameError();
    }
    if (changes.parentId !== undefined) {
      const problem = parentProblem(await this.environments.listEnvironments(organizationId), environmentId, changes.parentId);
      if (problem) throw new EnvironmentParentInvalidError(changes.parentId, problem);
    }
    const result = await this.environments.updateEnvironment(environmentId, changes);
    if (result === 'name_taken') throw new EnvironmentNameTakenError(changes.name!);
    const updated = result === 'updated' ? await this.environments.findEnvironment(environmentId) : null;
    if (!updated) throw new EnvironmentNotFoundError(environmentId);
    return updated;
  }
}
