import { Provider } from '@nestjs/common';
import { INBOX_REPOSITORY } from '@app/inbox';
import { SqlInboxRepository } from './sql-inbox.repository';

export { SqlInboxRepository } from './sql-inbox.repository';

export const sqlInboxProviders: Provider[] = [{ provide: INBOX_REPOSITORY, useClass: SqlInboxRepository }];
