import { ThrottleRequest, ThrottleWindowRepository } from '@app/delivery';
import { newId } from '@app/kernel';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { newScope } from './delivery-fixtures';

const MINUTE = 60_000;
/** The suites' clock is each request's own `at`: the window's ends are what the test says, never the machine's time. */
const T0 = new Date('2030-03-01T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** The ThrottleWindowRepository contract; every store adapter must pass it. */
function throttleWindowRepositoryContract(open: () => Promise<{ repository: ThrottleWindowRepository; close(): Promise<void> }>) {
  let repository: ThrottleWindowRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const request = (jobId: string, atMs: number, threshold = 3, windowMs = MINUTE): ThrottleRequest => ({
    jobId,
    threshold,
    at: at(atMs),
    endsAt: at(atMs + windowMs),
  });

  it('admits exactly `threshold` of 20 concurrent runs, all answered from one window', async () => {
    const scope = newScope();
    const key = newId();
    const jobs = Array.from({ length: 20 }, () => newId());
    const decisions = await Promise.all(jobs.map((jobId, n) => repository.admit(scope, key, request(jobId, n))));

    expect(decisions.filter((d) => d.admitted)).toHaveLength(3);
    expect(new Set(decisions.filter((d) => d.admitted).map((d) => d.count))).toEqual(new Set([1, 2, 3]));
    for (const refused of decisions.filter((d) => !d.admitted)) expect(refused.count).toBe(3);
    // one window, opened by the first admitted run and lasting its minute
    const windows = new Set(decisions.map((d) => `${d.openedAt.toISOString()}/${d.endsAt.toISOString()}`));
    expect(windows.size).toBe(1);
    const [opened] = decisions.filter((d) => d.admitted && d.count === 1);
    expect(opened.endsAt.getTime() - opened.openedAt.getTime()).toBe(MINUTE);
  });

  it('counts a job once however often it asks (a rerun after a crash), even concurrently', async () => {
    const scope = newScope();
    const key = newId();
    const [first, second, third] = [newId(), newId(), newId()];
    const again = await Promise.all([1, 2, 3, 4, 5].map(() => repository.admit(scope, key, request(first, 0, 2))));
    for (const decision of again) expect(decision).toEqual({ admitted: true, count: 1, openedAt: at(0), endsAt: at(MINUTE) });
    expect(await repository.admit(scope, key, request(second, 1000, 2))).toMatchObject({ admitted: true, count: 2 });
    expect(await repository.admit(scope, key, request(third, 2000, 2))).toEqual({ admitted: false, count: 2, openedAt: at(0), endsAt: at(MINUTE) });
    // admitted runs asking again stay admitted in a full window; a refused one stays refused
    expect(await repository.admit(scope, key, request(first, 3000, 2))).toMatchObject({ admitted: true, count: 2 });
    expect(await repository.admit(scope, key, request(second, 3000, 2))).toMatchObject({ admitted: true, count: 2 });
    expect(await repository.admit(scope, key, request(third, 3000, 2))).toMatchObject({ admitted: false, count: 2 });
  });

  it('opens a new window once the last one has ended, from the first run after it; the end a window opened with never moves', async () => {
    const scope = newScope();
    const key = newId();
    const [a, b, c, d] = [newId(), newId(), newId(), newId()];
    expect(await repository.admit(scope, key, request(a, 0, 1))).toEqual({ admitted: true, count: 1, openedAt: at(0), endsAt: at(MINUTE) });
    // a later run asking for a longer window does not stretch the open one
    expect(await repository.admit(scope, key, request(b, MINUTE - 1, 1, 10 * MINUTE))).toEqual({
      admitted: false,
      count: 1,
      openedAt: at(0),
      endsAt: at(MINUTE),
    });
    // the window ends at its end: the run asking then opens the next one, alone in it
    expect(await repository.admit(scope, key, request(b, MINUTE, 1))).toEqual({ admitted: true, count: 1, openedAt: at(MINUTE), endsAt: at(2 * MINUTE) });
    expect(await repository.admit(scope, key, request(c, MINUTE + 1, 1))).toMatchObject({ admitted: false, count: 1 });
    // long after: a fresh window (the previous window's jobs are gone from it)
    expect(await repository.admit(scope, key, request(d, 90 * MINUTE, 2))).toEqual({
      admitted: true,
      count: 1,
      openedAt: at(90 * MINUTE),
      endsAt: at(91 * MINUTE),
    });
    expect(await repository.admit(scope, key, request(a, 90 * MINUTE + 1, 2))).toMatchObject({ admitted: true, count: 2 });
  });

  it('keeps the windows of different keys and environments apart', async () => {
    const [one, two] = [newScope(), newScope()];
    const [key, other] = [newId(), newId()];
    expect(await repository.admit(one, key, request(newId(), 0, 1))).toMatchObject({ admitted: true, count: 1 });
    expect(await repository.admit(one, other, request(newId(), 0, 1))).toMatchObject({ admitted: true, count: 1 });
    expect(await repository.admit(two, key, request(newId(), 0, 1))).toMatchObject({ admitted: true, count: 1 });
    expect(await repository.admit(one, key, request(newId(), 1, 1))).toMatchObject({ admitted: false, count: 1 });
  });

  it('deletes, oldest first and up to the limit, the windows that ended before the cutoff (retention)', async () => {
    const scope = newScope();
    // far before the other tests' windows: the cutoff below reaches only these
    const longAgo = new Date('2001-01-01T00:00:00Z').getTime() - T0.getTime();
    for (const n of [0, 1, 2]) await repository.admit(scope, newId(), request(newId(), longAgo + n * MINUTE, 1, MINUTE));
    const open = newId();
    await repository.admit(scope, open, request(newId(), longAgo, 1, 365 * 24 * 60 * MINUTE));
    const cutoff = at(longAgo + 10 * MINUTE);

    expect(await repository.deleteOlderThan(cutoff, 2)).toBe(2);
    expect(await repository.deleteOlderThan(cutoff, 2)).toBe(1);
    expect(await repository.deleteOlderThan(cutoff, 2)).toBe(0);
    // the window still open keeps counting its run
    expect(await repository.admit(scope, open, request(newId(), longAgo + 5 * MINUTE, 1))).toMatchObject({ admitted: false, count: 1 });
  });
}

describe.each(REPOSITORY_STORES)('ThrottleWindowRepository on $name', (store) => {
  throttleWindowRepositoryContract(openRepository(store, (r) => r.throttleWindows));
});

describeMongoContract('ThrottleWindowRepository', (store) => throttleWindowRepositoryContract(openRepository(store, (r) => r.throttleWindows)));
