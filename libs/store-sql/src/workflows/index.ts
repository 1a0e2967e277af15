import { Provider } from '@nestjs/common';
import { WORKFLOW_REPOSITORY } from '@app/workflows';
import { SqlWorkflowRepository } from './sql-workflow.repository';

export { SqlWorkflowRepository } from './sql-workflow.repository';

// Repository adapters of the workflows context, bound to their port tokens.
export const sqlWorkflowsProviders: Provider[] = [{ provide: WORKFLOW_REPOSITORY, useClass: SqlWorkflowRepository }];
