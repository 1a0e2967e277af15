import { JobQueue, JobState, NewJob, systemClock } from '@app/kernel';
import { Job } from '../../domain/job';
import { JobRepository } from '../../ports/job.repository.port';
import { STEPS_QUEUE } from '../queues';
import { RecoverSteps } from './recover-steps.use-case';

/** A queue that knows only job states, for this class alone. */
class StateQueue {
  readonly added: NewJob[] = [];
  readonly removed: string[] = [];
  constructor(private readonly states: Record<string, JobState>) {}
  async getJobState(_queue: string, id: string) {
    return this.states[id];
  }
  async add(_queue: string, job: NewJob) {
    this.added.push(job);
  }
  async remove(_queue: string, id: string) {
    this.removed.push(id);
    return true;
  }
}

const job = (id: string, status: Job['status'], runAt?: Date) => ({ id, status, runAt }) as Job;

describe('RecoverSteps', () => {
  function run(jobs: Job[], states: Record<string, JobState>) {
    const queue = new StateQueue(states);
    const repository = { findOverdue: async () => jobs } as unknown as JobRepository;
    return { queue, recover: new RecoverSteps(repository, queue as unknown as JobQueue, systemClock) };
  }

  it('re-adds overdue queued or running jobs the queue no longer holds, and leaves held ones alone', async () => {
    const { queue, recover } = run([job('lost', 'queued'), job('waiting', 'queued'), job('crashed', 'running'), job('done', 'running')], {
      waiting: 'waiting',
      done: 'completed',
    });
    expect(await recover.execute()).toBe(3);
    expect(queue.added.map((j) => j.id)).toEqual(['lost', 'crashed', 'done']);
    expect(queue.removed).toEqual(['done']);
    expect(queue.added[0].data).toEqual({ jobId: 'lost' });
  });

  it('wakes a delayed job whose time has passed, once per due time', async () => {
    const due = new Date(1_000);
    const { queue, recover } = run([job('late', 'delayed', due), job('woken', 'delayed', due)], { 'woken:recover:1000': 'waiting' });
    expect(await recover.execute()).toBe(1);
    expect(queue.added).toEqual([expect.objectContaining({ id: 'late:recover:1000', data: { jobId: 'late', phase: 'wake' } })]);
    expect(STEPS_QUEUE).toBe('steps');
  });
});
