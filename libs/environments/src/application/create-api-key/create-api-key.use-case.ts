import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, newId } from '@app/kernel';
import { ApiKey, apiKeyHint, generateApiKeySecret, hashApiKey } from '../../domain/environment';
import { EnvironmentNotFoundError } from '../../domain/errors';
import { API_KEY_SEALER, ApiKeySealer, ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';

export interface CreateApiKeyCommand {
  environmentId: string;
  /** A chosen secret (BOOTSTRAP_API_KEY); random when absent. */
  secret?: string;
}

export interface CreatedApiKey {
  key: ApiKey;
  /** Shown once: only its hash is kept. */
  secret: string;
}

@Injectable()
export class CreateApiKey {
  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(API_KEY_SEALER) private readonly sealer?: ApiKeySealer,
  ) {}

  async execute(command: CreateApiKeyCommand): Promise<CreatedApiKey> {
    const environment = await this.environments.findEnvironment(command.environmentId);
    if (!environment) throw new EnvironmentNotFoundError(command.environmentId);
    const secret = command.secret ?? generateApiKeySecret();
    const key: ApiKey = {
      id: newId(),
      organizationId: environment.organizationId,
      environmentId: environment.id,
      hash: hashApiKey(secret),
      hint: apiKeyHint(secret),
      ...(this.sealer ? { sealedSecret: this.sealer.seal(secret) } : {}),
      createdAt: this.clock.now(),
    };
    if (!(await this.environments.insertApiKey(key))) throw new ConflictError('api_key_exists', 'This API key is already in use');
    return { key, secret };
  }
}
