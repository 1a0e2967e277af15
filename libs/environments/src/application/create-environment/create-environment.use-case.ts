import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/kernel';
import { DEVELOPMENT_ENVIRONMENT, Environment, defaultInboxHmac, generateEnvironmentIdentifier, parentProblem } from '../../domain/environment';
import { EnvironmentNameTakenError, EnvironmentParentInvalidError } from '../../domain/errors';
import { ENVIRONMENT_PROVISIONER, ENVIRONMENT_REPOSITORY, EnvironmentProvisioner, EnvironmentRepository } from '../../ports/environment.repository.port';

export interface CreateEnvironmentCommand {
  organizationId: string;
  name: string;
  color?: string;
  /** Default: the organization's Development environment (as Novu's Production), for any other environment. */
  parentId?: string;
}

@Injectable()
export class CreateEnvironment {
  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(ENVIRONMENT_PROVISIONER) private readonly provisioner?: EnvironmentProvisioner,
  ) {}

  async execute(command: CreateEnvironmentCommand): Promise<Environment> {
    const id = newId();
    const parentId = command.parentId ?? (await this.defaultParent(command));
    if (command.parentId) {
      const problem = parentProblem(await this.environments.listEnvironments(command.organizationId), id, command.parentId);
      if (problem) throw new EnvironmentParentInvalidError(command.parentId, problem);
    }
    const environment: Environment = {
      id,
      organizationId: command.organizationId,
      name: command.name,
      identifier: generateEnvironmentIdentifier(),
      inboxHmac: defaultInboxHmac(command.name),
      ...(command.color ? { color: command.color } : {}),
      ...(parentId ? { parentId } : {}),
      createdAt: this.clock.now(),
    };
    if (!(await this.environments.insertEnvironment(environment))) throw new EnvironmentNameTakenError(command.name);
    await this.provisioner?.provision({ organizationId: environment.organizationId, environmentId: environment.id });
    return environment;
  }

  private async defaultParent(command: CreateEnvironmentCommand): Promise<string | undefined> {
    if (command.name === DEVELOPMENT_ENVIRONMENT) return undefined;
    return (await this.environments.findEnvironmentByName(command.organizationId, DEVELOPMENT_ENVIRONMENT))?.id;
  }
}
