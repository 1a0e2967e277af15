import { CANCELABLE_JOB_STATUSES, JOB_STATUSES, canTransitionJob, inChainOrder, isTerminalJobStatus, jobStatusesAllowing, jobsAfter } from './job';
import { isActionStep, isChannelStep, isDeferredStep, isStepType } from './step-type';

describe('job status machine', () => {
  it("has Novu's nine statuses", () => {
    expect(JOB_STATUSES).toEqual(['pending', 'queued', 'delayed', 'running', 'completed', 'failed', 'canceled', 'merged', 'skipped']);
  });

  it('never leaves a terminal status', () => {
    for (const from of ['completed', 'failed', 'canceled', 'merged', 'skipped'] as const) {
      expect(isTerminalJobStatus(from)).toBe(true);
      for (const to of JOB_STATUSES) expect(canTransitionJob(from, to)).toBe(false);
    }
  });

  it('allows the normal paths', () => {
    expect(canTransitionJob('pending', 'queued')).toBe(true);
    expect(canTransitionJob('queued', 'running')).toBe(true);
    expect(canTransitionJob('running', 'completed')).toBe(true);
    expect(canTransitionJob('pending', 'delayed')).toBe(true);
    expect(canTransitionJob('delayed', 'queued')).toBe(true);
    expect(canTransitionJob('pending', 'merged')).toBe(true);
    expect(canTransitionJob('running', 'queued')).toBe(true); // retry
    expect(canTransitionJob('running', 'merged')).toBe(true); // a digest follower merges while its run decides
    expect(canTransitionJob('running', 'pending')).toBe(false);
  });

  it('gives the guard for conditional updates', () => {
    expect(jobStatusesAllowing('running')).toEqual(['pending', 'queued', 'delayed', 'running']);
    expect(jobStatusesAllowing('merged')).toEqual(['pending', 'queued', 'running']);
    expect(canTransitionJob('delayed', 'merged')).toBe(false);
    expect(CANCELABLE_JOB_STATUSES.every((s) => canTransitionJob(s, 'canceled'))).toBe(true);
  });
});

describe('step types', () => {
  it('classifies steps', () => {
    expect(isStepType('email')).toBe(true);
    expect(isStepType('fax')).toBe(false);
    expect(isChannelStep('in_app')).toBe(true);
    expect(isChannelStep('digest')).toBe(false);
    expect(isActionStep('delay')).toBe(true);
    expect(isActionStep('email')).toBe(false);
    expect(isDeferredStep('digest')).toBe(true);
    expect(isDeferredStep('custom')).toBe(false);
  });
});

describe('job chains', () => {
  // a → b → c, b → d (a branch), and e alone; given out of order
  const jobs = [{ id: 'c', parentId: 'b' }, { id: 'e' }, { id: 'b', parentId: 'a' }, { id: 'a' }, { id: 'd', parentId: 'b' }];

  it('inChainOrder puts each job after its parent, roots in the order given', () => {
    expect(inChainOrder(jobs).map((j) => j.id)).toEqual(['e', 'a', 'b', 'c', 'd']);
  });

  it('jobsAfter follows the parent links down from a job, whatever the depth', () => {
    expect(jobsAfter(jobs, 'a').map((j) => j.id)).toEqual(['c', 'b', 'd']);
    expect(jobsAfter(jobs, 'b').map((j) => j.id)).toEqual(['c', 'd']);
    expect(jobsAfter(jobs, 'c')).toEqual([]);
    expect(jobsAfter(jobs, 'unknown')).toEqual([]);
  });
});
