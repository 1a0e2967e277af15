import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { ContextNotFoundError } from '../../domain/errors';
import { CONTEXT_REPOSITORY, ContextRepository } from '../../ports/context.repository.port';

/** DELETE /v2/contexts/{type}/{id}; notifications sent within it keep its key. */
@Injectable()
export class DeleteContext {
  constructor(@Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository) {}

  async execute(scope: EnvironmentScope, type: string, identifier: string): Promise<void> {
    if (!(await this.contexts.delete(scope, type, identifier))) throw new ContextNotFoundError(type, identifier);
  }
}
