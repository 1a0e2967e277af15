import { Provider } from '@nestjs/common';
import { ENVIRONMENT_DATA_PURGER, ENVIRONMENT_REPOSITORY, ENVIRONMENT_VARIABLE_REPOSITORY } from '@app/environments';
import { SqlEnvironmentDataPurger } from './sql-environment-data.purger';
import { SqlEnvironmentRepository } from './sql-environment.repository';
import { SqlEnvironmentVariableRepository } from './sql-environment-variable.repository';

export { SqlEnvironmentRepository } from './sql-environment.repository';
export { SqlEnvironmentVariableRepository } from './sql-environment-variable.repository';
export { SqlEnvironmentDataPurger, environmentTables } from './sql-environment-data.purger';
export { SqlIdempotencyStore } from './sql-idempotency.store';
export const sqlEnvironmentProviders: Provider[] = [
  { provide: ENVIRONMENT_REPOSITORY, useClass: SqlEnvironmentRepository },
  { provide: ENVIRONMENT_DATA_PURGER, useClass: SqlEnvironmentDataPurger },
  { provide: ENVIRONMENT_VARIABLE_REPOSITORY, useClass: SqlEnvironmentVariableRepository },
];
