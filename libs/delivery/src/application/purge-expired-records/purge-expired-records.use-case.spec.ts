import { Clock } from '@app/kernel';
import { DeliveryEventRepository } from '../../ports/delivery-event.repository.port';
import { ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { JobRepository } from '../../ports/job.repository.port';
import { MessageRepository } from '../../ports/message.repository.port';
import { NotificationRepository } from '../../ports/notification.repository.port';
import { ThrottleWindowRepository } from '../../ports/throttle-window.repository.port';
import { TriggerRepository } from '../../ports/trigger.repository.port';
import { PurgeExpiredRecords } from './purge-expired-records.use-case';

/** A table of `rows` expired rows: each call deletes up to `limit` of them and records what it was asked. */
class ExpiredRows {
  readonly calls: { before: Date; limit: number }[] = [];
  constructor(private rows: number) {}
  deleteOlderThan = async (before: Date, limit: number) => {
    this.calls.push({ before, limit });
    const deleted = Math.min(limit, this.rows);
    this.rows -= deleted;
    return deleted;
  };
}

describe('PurgeExpiredRecords', () => {
  const now = new Date('2030-06-30T12:00:00Z');
  const clock: Clock = { now: () => now };
  const order: string[] = [];
  let tables: Record<'details' | 'messages' | 'jobs' | 'notifications' | 'triggers' | 'deliveryEvents' | 'throttleWindows', ExpiredRows>;
  let purge: PurgeExpiredRecords;

  beforeEach(() => {
    order.length = 0;
    tables = {
      details: new ExpiredRows(7),
      messages: new ExpiredRows(5),
      jobs: new ExpiredRows(4),
      notifications: new ExpiredRows(2),
      triggers: new ExpiredRows(0),
      deliveryEvents: new ExpiredRows(3),
      throttleWindows: new ExpiredRows(1),
    };
    const port = <T>(name: keyof typeof tables) =>
      ({ deleteOlderThan: (before: Date, limit: number) => (order.push(name), tables[name].deleteOlderThan(before, limit)) }) as unknown as T;
    purge = new PurgeExpiredRecords(
      port<ExecutionDetailRepository>('details'),
      port<MessageRepository>('messages'),
      port<JobRepository>('jobs'),
      port<NotificationRepository>('notifications'),
      port<TriggerRepository>('triggers'),
      port<DeliveryEventRepository>('deliveryEvents'),
      port<ThrottleWindowRepository>('throttleWindows'),
      clock,
    );
  });

  it('deletes in batches until a batch comes back short, leaves before notifications and triggers', async () => {
    expect(await purge.execute(30, 2)).toEqual({
      executionDetails: 7,
      messages: 5,
      jobs: 4,
      notifications: 2,
      triggers: 0,
      deliveryEvents: 3,
      throttleWindows: 1,
    });
    // 7 rows in batches of 2: 2, 2, 2, 1 (short: done)
    expect(tables.details.calls).toHaveLength(4);
    expect(tables.messages.calls).toHaveLength(3);
    // 4 rows: 2, 2, then an empty batch tells it is done
    expect(tables.jobs.calls).toHaveLength(3);
    expect(tables.triggers.calls).toHaveLength(1);
    expect([...new Set(order)]).toEqual(['details', 'messages', 'jobs', 'notifications', 'triggers', 'deliveryEvents', 'throttleWindows']);
    const cutoff = new Date('2030-05-31T12:00:00Z');
    for (const table of Object.values(tables)) for (const call of table.calls) expect(call).toEqual({ before: cutoff, limit: 2 });
  });

  it('uses batches of 1,000 by default', async () => {
    await purge.execute(1);
    expect(tables.details.calls[0]).toEqual({ before: new Date('2030-06-29T12:00:00Z'), limit: 1000 });
  });

  it('keeps everything when retention is 0 days', async () => {
    expect(await purge.execute(0)).toEqual({ executionDetails: 0, messages: 0, jobs: 0, notifications: 0, triggers: 0, deliveryEvents: 0, throttleWindows: 0 });
    expect(order).toEqual([]);
  });
});
