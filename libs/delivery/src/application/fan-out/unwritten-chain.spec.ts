import { systemClock } from '@app/kernel';
import { Job } from '../../domain/job';
import { StepWrites } from '../run-step/step-writes';
import { UnwrittenChain } from './unwritten-chain';

const chainOf = (...types: Job['type'][]): Job[] =>
  types.map(
    (type, index) =>
      ({
        id: `job-${index + 1}`,
        notificationId: 'n-1',
        parentId: index === 0 ? undefined : `job-${index}`,
        type,
        status: index === 0 ? 'queued' : 'pending',
        digest: type === 'digest' ? { amount: 1 } : undefined,
        attempts: 0,
      }) as unknown as Job,
  );

describe('UnwrittenChain', () => {
  it("moves jobs by the store's compare-and-set rules, applying patches, without touching the jobs it was given", async () => {
    const given = chainOf('in_app', 'chat');
    const chain = new UnwrittenChain(given, systemClock);
    expect(await chain.transition('job-1', 'running')).toBe(true);
    expect(await chain.transition('job-1', 'completed', { providerId: 'novu', error: null })).toBe(true);
    expect(await chain.transition('job-1', 'failed')).toBe(false); // terminal
    expect(await chain.transition('job-9', 'running')).toBe(false);
    expect(chain.jobs[0]).toMatchObject({ status: 'completed', providerId: 'novu' });
    expect(chain.jobs[0]).not.toHaveProperty('error');
    expect(given[0].status).toBe('queued');
  });

  it('queues the next pending job once, with digest events when given', async () => {
    const chain = new UnwrittenChain(chainOf('in_app', 'digest', 'chat'), systemClock);
    const next = await chain.queueNext('job-1', [{ a: 1 }]);
    expect(next).toMatchObject({ id: 'job-2', status: 'queued', digest: { amount: 1, events: [{ a: 1 }] } });
    expect(await chain.queueNext('job-1')).toBeNull();
    expect(await chain.queueNext('job-3')).toBeNull();
  });

  it('cancels the not-yet-running rest of the chain after a job', async () => {
    const chain = new UnwrittenChain(chainOf('in_app', 'chat', 'push'), systemClock);
    await chain.transition('job-1', 'running');
    expect(await chain.cancelChildren('n-1', 'job-1')).toEqual(['job-2', 'job-3']);
    expect(chain.jobs.map((job) => job.status)).toEqual(['running', 'canceled', 'canceled']);
    expect(await chain.cancelChildren('n-1', 'job-9')).toEqual([]);
  });

  it('keeps messages once by id, and holds details and queue adds for the write', async () => {
    const chain = new UnwrittenChain(chainOf('in_app'), systemClock);
    const message = { id: 'job-1', content: 'Hi' } as never;
    expect(await chain.insertMessage(message)).toEqual({ message, created: true });
    expect(await chain.insertMessage({ id: 'job-1', content: 'again' } as never)).toEqual({ message, created: false });
    await chain.appendDetail({ id: 'd-1' } as never);
    await chain.enqueue({ id: 'job-2', data: { jobId: 'job-2' } });
    expect(chain.messages).toHaveLength(1);
    expect(chain.details).toHaveLength(1);
    expect(chain.enqueued).toEqual([{ id: 'job-2', data: { jobId: 'job-2' } }]);
  });

  it('takes no provider outcome and no digest bucket write: it is no StepWrites (checked by the compiler)', () => {
    const chain = new UnwrittenChain(chainOf('in_app'), systemClock);
    // @ts-expect-error an unwritten chain only has RunAheadWrites
    const writes: StepWrites = chain;
    expect('updateMessage' in writes || 'mergeIntoDigest' in writes).toBe(false);
  });
});
