import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEVELOPMENT_ENVIRONMENT } from '../../domain/environment';
import { EnvironmentDeletionRefusedError, EnvironmentNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_DATA_PURGER, ENVIRONMENT_REPOSITORY, EnvironmentDataPurger, EnvironmentRepository } from '../../ports/environment.repository.port';
import { AuthenticateApiKey } from '../authenticate-api-key/authenticate-api-key.use-case';

export interface DeleteEnvironmentCommand {
  /** The caller's organization and environment (a key cannot delete the environment it belongs to). */
  organizationId: string;
  callerEnvironmentId: string;
  environmentId: string;
}

/**
 * DELETE /v1/environments/{id}: its keys go first (refused from then on), then every record of it in
 * every store table (EnvironmentDataPurger), then the environment itself. Its child environments take
 * its parent. A crash part-way leaves the environment listed, so the same call finishes the work.
 */
@Injectable()
export class DeleteEnvironment {
  private readonly logger = new Logger(DeleteEnvironment.name);

  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(ENVIRONMENT_DATA_PURGER) private readonly data: EnvironmentDataPurger,
    private readonly authenticate: AuthenticateApiKey,
  ) {}

  async execute({ organizationId, callerEnvironmentId, environmentId }: DeleteEnvironmentCommand): Promise<void> {
    const environment = await this.environments.findEnvironment(environmentId);
    if (!environment || environment.organizationId !== organizationId) throw new EnvironmentNotFoundError(environmentId);
    if (environmentId === callerEnvironmentId) throw new EnvironmentDeletionRefusedError('environment_delete_own');
    const siblings = await this.environments.listEnvironments(organizationId);
    if (siblings.length <= 1) throw new EnvironmentDeletionRefusedError('environment_delete_last');
    if (environment.name === DEVELOPMENT_ENVIRONMENT) throw new EnvironmentDeletionRefusedError('environment_delete_development');

    const keys = await this.environments.listApiKeys(environmentId);
    await this.environments.deleteApiKeys(environmentId);
    this.authenticate.forget(keys.map((key) => key.hash));

    const newParent = environment.parentId ?? siblings.find((e) => e.name === DEVELOPMENT_ENVIRONMENT)?.id;
    for (const child of siblings.filter((e) => e.parentId === environmentId && e.id !== newParent)) {
      if (newParent) await this.environments.updateEnvironment(child.id, { parentId: newParent });
    }

    const removed = await this.data.purge(environmentId);
    await this.environments.deleteEnvironment(environmentId);
    this.logger.log(`Environment ${environmentId} deleted with ${keys.length} API key(s) and ${removed} record(s)`);
  }
}
