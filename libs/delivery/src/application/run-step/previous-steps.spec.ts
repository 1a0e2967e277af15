import { StepCondition } from '@app/kernel';
import { Workflow } from '@app/workflows';
import { DeliveryEventRecord } from '../../domain/delivery-event';
import { Job } from '../../domain/job';
import { Message } from '../../domain/message';
import { DeliveryEventRepository } from '../../ports/delivery-event.repository.port';
import { JobRepository } from '../../ports/job.repository.port';
import { MessageRepository } from '../../ports/message.repository.port';
import { PreviousSteps } from './previous-steps';
import { StepContext } from './step-context';

const scope = { organizationId: 'org', environmentId: 'env' };
const workflow = {
  steps: [
    { id: 'step-in-app', uuid: 'u-in-app', template: { type: 'in_app' } },
    { id: 'step-email', uuid: 'u-email', template: { type: 'email' } },
    { id: 'step-push', uuid: 'u-push', template: { type: 'push' } },
    { id: 'step-sms', uuid: 'u-sms', template: { type: 'sms' } },
    { id: 'step-now', uuid: 'u-now', template: { type: 'chat' } },
  ],
} as unknown as Workflow;
const job = (stepId: string) => ({ id: `job-${stepId}`, notificationId: 'n-1', stepId }) as Job;
const message = (id: string, channel: string, flags: Partial<Pick<Message, 'seen' | 'read'>> = {}) =>
  ({ id, channel, seen: false, read: false, ...flags }) as Message;

/** PreviousSteps over stand-in repositories: one notification whose in-app, email and push steps sent, and whose sms step sent nothing. */
function reader() {
  const reads = { jobs: 0, events: [] as string[] };
  const messagesByJob: Record<string, Message[]> = {
    'job-step-in-app': [message('m-in-app', 'in_app', { seen: true })],
    'job-step-email': [message('m-email', 'email')],
    'job-step-push': [message('m-push-1', 'push'), message('m-push-2', 'push', { seen: true, read: true })],
    'job-step-sms': [],
  };
  const jobs = {
    findByNotificationIds: async (_scope: unknown, ids: string[]) => {
      reads.jobs++;
      expect(ids).toEqual(['n-1']);
      return ['step-in-app', 'step-email', 'step-push', 'step-sms', 'step-now'].map(job);
    },
  } as unknown as JobRepository;
  const messages = { findByJobId: async (jobId: string) => messagesByJob[jobId] ?? [] } as unknown as MessageRepository;
  let emailEvents: DeliveryEventRecord['type'][] = ['delivered'];
  const events = {
    listByMessage: async (messageId: string) => {
      reads.events.push(messageId);
      return emailEvents.map((type) => ({ messageId, type }) as DeliveryEventRecord);
    },
  } as unknown as DeliveryEventRepository;
  const context = { scope, job: job('step-now'), workflow } as unknown as StepContext;
  const filters = (...steps: string[]): StepCondition[] => [{ value: 'AND', children: steps.map((step) => ({ on: 'previousStep', step, stepType: 'read' })) }];
  return {
    previous: new PreviousSteps(jobs, messages, events),
    context,
    filters,
    reads,
    emailOpens: (types: DeliveryEventRecord['type'][]) => (emailEvents = types),
  };
}

describe('PreviousSteps.states', () => {
  it('reads nothing when no filter names a previous step', async () => {
    const { previous, context, reads } = reader();
    await expect(previous.states(context, [{ value: 'AND', children: [{ on: 'payload', field: 'a', value: '1', operator: 'EQUAL' }] }])).resolves.toEqual({});
    expect(reads.jobs).toBe(0);
  });

  it("gives each named step's seen / read, any of its messages counting", async () => {
    const { previous, context, filters, reads } = reader();
    await expect(previous.states(context, filters('u-in-app', 'u-push'))).resolves.toEqual({
      'u-in-app': { seen: true, read: false },
      'u-push': { seen: true, read: true },
    });
    expect(reads.jobs).toBe(1);
    expect(reads.events).toEqual([]); // only emails ask their provider's events
  });

  it('counts an email read and seen once its provider reported it opened or clicked', async () => {
    const unopened = reader();
    await expect(unopened.previous.states(unopened.context, unopened.filters('u-email'))).resolves.toEqual({ 'u-email': { seen: false, read: false } });
    expect(unopened.reads.events).toEqual(['m-email']);

    for (const types of [['delivered', 'opened'], ['clicked']] as DeliveryEventRecord['type'][][]) {
      const opened = reader();
      opened.emailOpens(types);
      await expect(opened.previous.states(opened.context, opened.filters('u-email'))).resolves.toEqual({ 'u-email': { seen: true, read: true } });
    }
  });

  it('leaves out a step that sent nothing, a step with no job and an unknown uuid (they pass, as Novu)', async () => {
    const { previous, context, filters } = reader();
    await expect(previous.states(context, filters('u-sms', 'u-unknown'))).resolves.toEqual({});
  });
});
