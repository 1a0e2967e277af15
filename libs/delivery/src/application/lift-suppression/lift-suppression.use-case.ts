import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { suppressionAddress } from '../../domain/delivery-event';
import { SUPPRESSION_REPOSITORY, SuppressionRepository } from '../../ports/suppression.repository.port';

export class SuppressionNotFoundError extends NotFoundError {
  constructor(address: string) {
    super('suppression_not_found', `The address ${address} is not suppressed`);
  }
}

/** DELETE /v2/suppressions/{address}: later sends to the address go out again. */
@Injectable()
export class LiftSuppression {
  constructor(@Inject(SUPPRESSION_REPOSITORY) private readonly suppressions: SuppressionRepository) {}

  async execute(scope: EnvironmentScope, address: string): Promise<void> {
    if (!(await this.suppressions.delete(scope, suppressionAddress(address)))) throw new SuppressionNotFoundError(address.slice(0, 320));
  }
}
