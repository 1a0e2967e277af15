import { Provider } from '@nestjs/common';
import { CONTEXT_REPOSITORY } from '@app/contexts';
import { SqlContextRepository } from './sql-context.repository';

export { SqlContextRepository } from './sql-context.repository';
// Repository adapter of the contexts context, bound to its port token.
export const sqlContextsProviders: Provider[] = [{ provide: CONTEXT_REPOSITORY, useClass: SqlContextRepository }];
