import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';

/** Turns the Inbox HMAC requirement of an environment on or off (CLI). */
@Injectable()
export class SetInboxHmac {
  constructor(@Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository) {}

  async execute(environmentId: string, required: boolean): Promise<void> {
    if (!(await this.environments.setInboxHmac(environmentId, required))) throw new EnvironmentNotFoundError(environmentId);
  }
}
