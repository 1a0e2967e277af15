import { Provider } from '@nestjs/common';
import { CachedLayoutRepository, CachedWorkflowRepository, LAYOUT_REPOSITORY, WORKFLOW_REPOSITORY } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { SqlLayoutRepository } from './sql-layout.repository';
import { SqlWorkflowRepository } from './sql-workflow.repository';

export { SqlWorkflowRepository } from './sql-workflow.repository';
export { SqlLayoutRepository } from './sql-layout.repository';

// Repository adapters of the workflows context, bound to their port tokens.
// The pipeline's workflow and layout lookups are cached for a moment (CachedWorkflowRepository, CachedLayoutRepository).
export const sqlWorkflowsProviders: Provider[] = [
  { provide: WORKFLOW_REPOSITORY, useFactory: (sql: SqlClient) => new CachedWorkflowRepository(new SqlWorkflowRepository(sql)), inject: [SQL_CLIENT] },
  { provide: LAYOUT_REPOSITORY, useFactory: (sql: SqlClient) => new CachedLayoutRepository(new SqlLayoutRepository(sql)), inject: [SQL_CLIENT] },
];
