import { CANCELABLE_STATUS_SQL } from '../delivery/sql-job.repository';
import { deliveryIndexEntriesMigration } from './0025_delivery_index_entries';

describe('migration 25', () => {
  it('gives the cancel index the predicate the cancel query states, so the planner can use it', () => {
    expect(deliveryIndexEntriesMigration.sql).toContain(`jobs (environment_id, transaction_id) WHERE ${CANCELABLE_STATUS_SQL};`);
  });
});
