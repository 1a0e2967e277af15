import { Provider } from '@nestjs/common';
import { ENVIRONMENT_REPOSITORY } from '@app/environments';
import { SqlEnvironmentRepository } from './sql-environment.repository';

export { SqlEnvironmentRepository } from './sql-environment.repository';
export { SqlIdempotencyStore } from './sql-idempotency.store';
export const sqlEnvironmentProviders: Provider[] = [{ provide: ENVIRONMENT_REPOSITORY, useClass: SqlEnvironmentRepository }];
