import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/kernel';
import { Environment, defaultInboxHmac, generateEnvironmentIdentifier } from '../../domain/environment';
import { EnvironmentNameTakenError } from '../../domain/errors';
import { ENVIRONMENT_PROVISIONER, ENVIRONMENT_REPOSITORY, EnvironmentProvisioner, EnvironmentRepository } from '../../ports/environment.repository.port';

export interface CreateEnvironmentCommand {
  organizationId: string;
  name: string;
}

@Injectable()
export class CreateEnvironment {
  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(ENVIRONMENT_PROVISIONER) private readonly provisioner?: EnvironmentProvisioner,
  ) {}

  async execute(command: CreateEnvironmentCommand): Promise<Environment> {
    const environment: Environment = {
      id: newId(),
      organizationId: command.organizationId,
      name: command.name,
      identifier: generateEnvironmentIdentifier(),
      inboxHmac: defaultInboxHmac(command.name),
      createdAt: this.clock.now(),
    };
    if (!(await this.environments.insertEnvironment(environment))) throw new EnvironmentNameTakenError(command.name);
    await this.provisioner?.provision({ organizationId: environment.organizationId, environmentId: environment.id });
    return environment;
  }
}
