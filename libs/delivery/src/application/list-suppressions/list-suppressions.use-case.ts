import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Suppression } from '../../domain/delivery-event';
import { SUPPRESSION_REPOSITORY, SuppressionRepository } from '../../ports/suppression.repository.port';

/** GET /v2/suppressions: the environment's suppressed addresses, newest first. */
@Injectable()
export class ListSuppressions {
  constructor(@Inject(SUPPRESSION_REPOSITORY) private readonly suppressions: SuppressionRepository) {}

  execute(scope: EnvironmentScope, query: { page: number; limit: number }): Promise<Page<Suppression>> {
    return this.suppressions.list(scope, query);
  }
}
