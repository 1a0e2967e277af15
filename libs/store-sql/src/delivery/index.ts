import { Provider } from '@nestjs/common';
import {
  CHAIN_REPOSITORY,
  DIGEST_BUCKET_REPOSITORY,
  EXECUTION_DETAIL_REPOSITORY,
  JOB_REPOSITORY,
  MESSAGE_REPOSITORY,
  NOTIFICATION_REPOSITORY,
  TRIGGER_REPOSITORY,
  DELIVERY_EVENT_REPOSITORY,
  SUPPRESSION_REPOSITORY,
  THROTTLE_WINDOW_REPOSITORY,
} from '@app/delivery';
import { SqlTriggerRepository } from './sql-trigger.repository';
import { SqlNotificationRepository } from './sql-notification.repository';
import { SqlJobRepository } from './sql-job.repository';
import { SqlExecutionDetailRepository } from './sql-execution-detail.repository';
import { SqlMessageRepository } from './sql-message.repository';
import { SqlDigestBucketRepository } from './sql-digest-bucket.repository';
import { SqlDeliveryEventRepository } from './sql-delivery-event.repository';
import { SqlSuppressionRepository } from './sql-suppression.repository';
import { SqlThrottleWindowRepository } from './sql-throttle-window.repository';
import { SqlChainRepository } from './sql-chain.repository';

export { SqlTriggerRepository } from './sql-trigger.repository';
export { SqlNotificationRepository } from './sql-notification.repository';
export { SqlJobRepository } from './sql-job.repository';
export { SqlExecutionDetailRepository } from './sql-execution-detail.repository';
export { SqlMessageRepository } from './sql-message.repository';
export { SqlDigestBucketRepository } from './sql-digest-bucket.repository';
export { SqlDeliveryEventRepository } from './sql-delivery-event.repository';
export { SqlSuppressionRepository } from './sql-suppression.repository';
export { SqlThrottleWindowRepository } from './sql-throttle-window.repository';
export { SqlChainRepository } from './sql-chain.repository';

// Repository adapters of the delivery context, bound to their port tokens.
export const sqlDeliveryProviders: Provider[] = [
  { provide: TRIGGER_REPOSITORY, useClass: SqlTriggerRepository },
  { provide: NOTIFICATION_REPOSITORY, useClass: SqlNotificationRepository },
  { provide: JOB_REPOSITORY, useClass: SqlJobRepository },
  { provide: CHAIN_REPOSITORY, useClass: SqlChainRepository },
  { provide: EXECUTION_DETAIL_REPOSITORY, useClass: SqlExecutionDetailRepository },
  { provide: MESSAGE_REPOSITORY, useClass: SqlMessageRepository },
  { provide: DIGEST_BUCKET_REPOSITORY, useClass: SqlDigestBucketRepository },
  { provide: DELIVERY_EVENT_REPOSITORY, useClass: SqlDeliveryEventRepository },
  { provide: SUPPRESSION_REPOSITORY, useClass: SqlSuppressionRepository },
  { provide: THROTTLE_WINDOW_REPOSITORY, useClass: SqlThrottleWindowRepository },
];
