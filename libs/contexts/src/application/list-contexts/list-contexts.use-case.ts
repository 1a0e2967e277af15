import { Inject, Injectable } from '@nestjs/common';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { Context } from '../../domain/context';
import { CONTEXT_REPOSITORY, ContextRepository, ContextSearch } from '../../ports/context.repository.port';

@Injectable()
export class ListContexts {
  constructor(@Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository) {}

  execute(scope: EnvironmentScope, search: ContextSearch): Promise<CursorPage<Context>> {
    return this.contexts.search(scope, search);
  }
}
