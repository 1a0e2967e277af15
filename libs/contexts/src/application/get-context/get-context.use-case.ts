import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Context } from '../../domain/context';
import { ContextNotFoundError } from '../../domain/errors';
import { CONTEXT_REPOSITORY, ContextRepository } from '../../ports/context.repository.port';

@Injectable()
export class GetContext {
  constructor(@Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository) {}

  async execute(scope: EnvironmentScope, type: string, identifier: string): Promise<Context> {
    const context = await this.contexts.find(scope, type, identifier);
    if (!context) throw new ContextNotFoundError(type, identifier);
    return context;
  }
}
