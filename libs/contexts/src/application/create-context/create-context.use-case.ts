import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { Context } from '../../domain/context';
import { ContextExistsError } from '../../domain/errors';
import { CONTEXT_REPOSITORY, ContextRepository } from '../../ports/context.repository.port';

export interface CreateContextCommand {
  scope: EnvironmentScope;
  type: string;
  identifier: string;
  data?: Record<string, unknown>;
}

/** POST /v2/contexts: 409 when the environment has the context already. */
@Injectable()
export class CreateContext {
  constructor(
    @Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, type, identifier, data }: CreateContextCommand): Promise<Context> {
    const now = this.clock.now();
    const context: Context = { id: newId(now.getTime()), ...scope, type, identifier, data: data ?? {}, createdAt: now, updatedAt: now };
    if (!(await this.contexts.insert(context))) throw new ContextExistsError(type, identifier);
    return context;
  }
}
