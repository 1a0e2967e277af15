import { Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { PurgeCounts, PurgeExpiredRecords } from '@app/delivery';
import { RETENTION_EVERY_MS, RETENTION_FIRST_RUN_AFTER_MS, RetentionScheduler } from './retention.scheduler';

const NONE: PurgeCounts = { executionDetails: 0, messages: 0, jobs: 0, notifications: 0, triggers: 0, deliveryEvents: 0, throttleWindows: 0 };

describe('RetentionScheduler', () => {
  let runs: number[];
  let results: (PurgeCounts | Error)[];
  let logged: string[];
  let errors: string[];

  beforeEach(() => {
    jest.useFakeTimers();
    runs = [];
    results = [];
    logged = [];
    errors = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((_: unknown, message?: unknown) => void logged.push(String(message)));
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  const scheduler = (retentionDays: number) =>
    new RetentionScheduler(
      { retentionDays } as AppConfig,
      {
        execute: async (days: number) => {
          runs.push(days);
          const result = results.shift() ?? NONE;
          if (result instanceof Error) throw result;
          return result;
        },
      } as PurgeExpiredRecords,
    );

  it('purges a minute after start, then every five minutes', async () => {
    const subject = scheduler(30);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(RETENTION_FIRST_RUN_AFTER_MS - 1);
    expect(runs).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([30]);
    await jest.advanceTimersByTimeAsync(2 * RETENTION_EVERY_MS);
    expect(runs).toEqual([30, 30, 30]);
    subject.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(RETENTION_EVERY_MS);
    expect(runs).toHaveLength(3);
  });

  it('never runs with RETENTION_DAYS=0', async () => {
    const subject = scheduler(0);
    subject.onApplicationBootstrap();
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(RETENTION_FIRST_RUN_AFTER_MS + RETENTION_EVERY_MS);
    expect(runs).toEqual([]);
  });

  it('logs a line with the counts when it deleted something, none otherwise', async () => {
    results.push(NONE, { executionDetails: 5, messages: 4, jobs: 3, notifications: 2, triggers: 1, deliveryEvents: 0, throttleWindows: 0 });
    const subject = scheduler(7);
    expect(await subject.run()).toEqual(NONE);
    expect(logged).toEqual([]);
    await subject.run();
    expect(logged).toEqual([
      'Deleted delivery records older than 7 days: 5 execution details, 4 messages, 3 jobs, 2 notifications, 1 triggers, 0 vendor delivery events, 0 throttle windows',
    ]);
  });

  it('never overlaps two purges, and a failed purge is logged and tried again next time', async () => {
    const subject = scheduler(30);
    results.push(new Error('connection lost'));
    const [first, second] = [subject.run(), subject.run()];
    expect(first).toBe(second);
    expect(await first).toBeUndefined();
    expect(runs).toHaveLength(1);
    expect(errors).toEqual([expect.stringContaining('Retention purge failed (it runs again in 5 minutes): connection lost')]);
    expect(await subject.run()).toEqual(NONE);
    expect(runs).toHaveLength(2);
  });
});
