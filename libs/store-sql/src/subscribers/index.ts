import { Provider } from '@nestjs/common';
import { PREFERENCE_REPOSITORY, SUBSCRIBER_REPOSITORY } from '@app/subscribers';
import { SqlSubscriberRepository } from './sql-subscriber.repository';
import { SqlPreferenceRepository } from './sql-preference.repository';

export { SqlSubscriberRepository } from './sql-subscriber.repository';
export { SqlPreferenceRepository } from './sql-preference.repository';

// Repository adapters of the subscribers context, bound to their port tokens.
export const sqlSubscribersProviders: Provider[] = [
  { provide: SUBSCRIBER_REPOSITORY, useClass: SqlSubscriberRepository },
  { provide: PREFERENCE_REPOSITORY, useClass: SqlPreferenceRepository },
];
