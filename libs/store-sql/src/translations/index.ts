import { Provider } from '@nestjs/common';
import { CachedTranslationRepository, TRANSLATION_REPOSITORY } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { SqlTranslationRepository } from './sql-translation.repository';

export { SqlTranslationRepository } from './sql-translation.repository';

// The translations of workflows and layouts; each delivery's reads are cached for a moment (CachedTranslationRepository).
export const sqlTranslationsProviders: Provider[] = [
  { provide: TRANSLATION_REPOSITORY, useFactory: (sql: SqlClient) => new CachedTranslationRepository(new SqlTranslationRepository(sql)), inject: [SQL_CLIENT] },
];
