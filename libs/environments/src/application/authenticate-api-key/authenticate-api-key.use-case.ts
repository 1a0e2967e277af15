import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, TtlCache } from '@app/kernel';
import { hashApiKey } from '../../domain/environment';
import { ApiKeyNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '../../ports/environment.repository.port';

export interface AuthenticatedScope extends EnvironmentScope {
  apiKeyId: string;
}

const CACHE_TTL_MS = 60_000;

/** Resolves an API key to its environment; hits are cached briefly since every request does this. */
@Injectable()
export class AuthenticateApiKey {
  private readonly cache = new TtlCache<AuthenticatedScope>(CACHE_TTL_MS);

  constructor(@Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository) {}

  async execute(secret: string): Promise<AuthenticatedScope> {
    const hash = hashApiKey(secret);
    return this.cache.getOrLoad(hash, async () => {
      const key = await this.environments.findApiKeyByHash(hash);
      // A miss is not cached: it throws, so a key created a moment ago works at once.
      if (!key) throw new ApiKeyNotFoundError();
      return { organizationId: key.organizationId, environmentId: key.environmentId, apiKeyId: key.id };
    });
  }

  /** Forgets these keys (by hash) at once in this process; other processes hold theirs up to CACHE_TTL_MS. */
  forget(hashes: string[]): void {
    for (const hash of hashes) this.cache.delete(hash);
  }
}
