import { Provider } from '@nestjs/common';
import { TOPIC_REPOSITORY } from '@app/subscribers';
import { SqlTopicRepository } from './sql-topic.repository';

export { SqlTopicRepository } from './sql-topic.repository';

// Repository adapters of the topics context, bound to their port tokens.
export const sqlTopicsProviders: Provider[] = [{ provide: TOPIC_REPOSITORY, useClass: SqlTopicRepository }];
