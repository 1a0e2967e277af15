import { AdmissionQueueFullError, FairAdmission, Release } from './fair-admission';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairAdmission', () => {
  it('runs up to maxInFlight requests of an environment at once and queues the rest in order', async () => {
    const admission = new FairAdmission(2, 10);
    const first = admission.acquire('a') as Release;
    const second = admission.acquire('a') as Release;
    const started: string[] = [];
    void Promise.resolve(admission.acquire('a')).then(() => started.push('third'));
    void Promise.resolve(admission.acquire('a')).then(() => started.push('fourth'));
    await settle();
    expect(started).toEqual([]);
    expect(admission.loadOf('a')).toEqual({ running: 2, waiting: 2 });
    first();
    await settle();
    expect(started).toEqual(['third']);
    second();
    await settle();
    expect(started).toEqual(['third', 'fourth']);
  });

  it("never queues one environment's request behind another's", async () => {
    const admission = new FairAdmission(1, 10);
    void admission.acquire('a');
    void admission.acquire('a');
    expect(typeof admission.acquire('b')).toBe('function'); // b runs at once while a waits on itself
    expect(admission.loadOf('a')).toEqual({ running: 1, waiting: 1 });
  });

  it('refuses a request beyond maxQueued with a 429-kind error, and counts a release once', async () => {
    const admission = new FairAdmission(1, 1);
    const release = admission.acquire('a') as Release;
    void admission.acquire('a');
    expect(() => admission.acquire('a')).toThrow(AdmissionQueueFullError);
    expect(() => admission.acquire('a')).toThrow(expect.objectContaining({ code: 'overloaded', kind: 'rate_limited' }));
    release();
    release();
    await settle();
    expect(admission.loadOf('a')).toEqual({ running: 1, waiting: 0 });
  });

  it('forgets an idle environment, and with maxInFlight 0 admits everything', () => {
    const admission = new FairAdmission(1, 1);
    (admission.acquire('a') as Release)();
    expect(admission.loadOf('a')).toEqual({ running: 0, waiting: 0 });
    const open = new FairAdmission(0, 1);
    for (let i = 0; i < 5; i++) expect(typeof open.acquire('a')).toBe('function');
  });
});
