import { systemClock } from '@app/kernel';
import { DETAIL } from '../../domain/execution-detail';
import { Job } from '../../domain/job';
import { ChainSession } from './chain-session';
import { StepRecorder } from './channels/step-recorder';
import { StepChain, failureStopsChain } from './step-chain';

const chainOf = (...types: Job['type'][]): Job[] =>
  types.map(
    (type, index) =>
      ({
        id: `job-${index + 1}`,
        organizationId: 'org',
        environmentId: 'env',
        notificationId: 'n-1',
        transactionId: 'tx-1',
        subscriberId: 's-1',
        parentId: index === 0 ? undefined : `job-${index}`,
        type,
        status: index === 0 ? 'running' : 'pending',
        payload: {},
        overrides: {},
        attempts: 0,
      }) as unknown as Job,
  );

describe('StepChain', () => {
  const steps = new StepChain(new StepRecorder(systemClock));

  it("hands the chain on: the next job is queued and added to the steps queue, carrying a digest's events", async () => {
    const chain = ChainSession.ofStoredChain(chainOf('digest', 'in_app', 'chat'), undefined, systemClock);
    steps.handOn(chain, chain.jobs[0], [{ n: 1 }]);
    expect(chain.jobs[1]).toMatchObject({ status: 'queued', digest: { events: [{ n: 1 }] } });
    expect(chain.held.stepJobs).toEqual([expect.objectContaining({ id: 'job-2', data: { jobId: 'job-2' }, attempts: 6 })]);
    // the in-app step after it passes the events on to the chat step
    steps.handOn(chain, chain.jobs[1]);
    expect(chain.jobs[2]).toMatchObject({ status: 'queued', digest: { events: [{ n: 1 }] } });
    // a job that has moved already (quiet hours let it go) is not added twice
    steps.handOn(chain, chain.jobs[0]);
    expect(chain.held.stepJobs).toHaveLength(2);
  });

  it('cancels the rest of the chain, noting why on each canceled job when told', async () => {
    const failed = ChainSession.ofStoredChain(chainOf('delay', 'in_app', 'chat'), undefined, systemClock);
    steps.cancelRest(failed, failed.jobs[0], { detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED });
    expect(failed.jobs.map((job) => job.status)).toEqual(['running', 'canceled', 'canceled']);
    expect(failed.held.details.map((detail) => [detail.jobId, detail.status, detail.detail])).toEqual([
      ['job-2', 'Warning', DETAIL.STEP_CANCELED_PREVIOUS_FAILED],
      ['job-3', 'Warning', DETAIL.STEP_CANCELED_PREVIOUS_FAILED],
    ]);
    const merged = ChainSession.ofStoredChain(chainOf('digest', 'in_app'), undefined, systemClock);
    steps.cancelRest(merged, merged.jobs[0]);
    expect(merged.jobs[1].status).toBe('canceled');
    expect(merged.held.details).toEqual([]);
  });

  it('lets the chain go on after a failed channel step unless it says stop, and after a failed HTTP request step that says continueOnFailure; any other failed step stops it', () => {
    expect(failureStopsChain({ type: 'email' }, undefined)).toBe(false);
    expect(failureStopsChain({ type: 'email' }, { shouldStopOnFail: true })).toBe(true);
    expect(failureStopsChain({ type: 'delay' }, { shouldStopOnFail: false })).toBe(true);
    const http = (continueOnFailure?: boolean) => ({
      template: { id: 't', type: 'http_request' as const },
      metadata: { method: 'GET' as const, url: 'https://example.com', headers: [], continueOnFailure },
    });
    expect(failureStopsChain({ type: 'http_request' }, http())).toBe(true);
    expect(failureStopsChain({ type: 'http_request' }, http(true))).toBe(false);
    expect(failureStopsChain({ type: 'http_request' }, undefined)).toBe(true);
  });
});
