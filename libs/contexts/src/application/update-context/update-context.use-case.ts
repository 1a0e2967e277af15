import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { Context } from '../../domain/context';
import { ContextNotFoundError } from '../../domain/errors';
import { CONTEXT_REPOSITORY, ContextRepository } from '../../ports/context.repository.port';

export interface UpdateContextCommand {
  scope: EnvironmentScope;
  type: string;
  identifier: string;
  /** Replaces the context's data. */
  data: Record<string, unknown>;
}

/** PATCH /v2/contexts/{type}/{id}: the data replaced; 404 when there is no such context. */
@Injectable()
export class UpdateContext {
  constructor(
    @Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, type, identifier, data }: UpdateContextCommand): Promise<Context> {
    const updated = await this.contexts.updateData(scope, type, identifier, data, this.clock.now());
    if (!updated) throw new ContextNotFoundError(type, identifier);
    return updated;
  }
}
