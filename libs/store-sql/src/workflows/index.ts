import { Provider } from '@nestjs/common';
import { CachedWorkflowRepository, WORKFLOW_REPOSITORY } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { SqlWorkflowRepository } from './sql-workflow.repository';

export { SqlWorkflowRepository } from './sql-workflow.repository';

// Repository adapters of the workflows context, bound to their port tokens.
// The pipeline's workflow lookups are cached for a moment (CachedWorkflowRepository).
export const sqlWorkflowsProviders: Provider[] = [
  { provide: WORKFLOW_REPOSITORY, useFactory: (sql: SqlClient) => new CachedWorkflowRepository(new SqlWorkflowRepository(sql)), inject: [SQL_CLIENT] },
];
