import { Inject, Injectable } from '@nestjs/common';
import { MessageReadState, StepCondition, isPreviousStepPart } from '@app/kernel';
import { EMAIL_OPENING_EVENTS, messagesReadState } from '../../domain/message';
import { DELIVERY_EVENT_REPOSITORY, DeliveryEventRepository } from '../../ports/delivery-event.repository.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';
import { StepContext } from './step-context';

/**
 * What previous-step filter parts read, at the moment the step runs: for each step uuid the filters
 * name, whether the messages that step sent in this notification were seen / read. Reads nothing
 * when no filter names a previous step.
 */
@Injectable()
export class PreviousSteps {
  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(DELIVERY_EVENT_REPOSITORY) private readonly events: DeliveryEventRepository,
  ) {}

  async states(context: StepContext, filters: readonly StepCondition[]): Promise<Record<string, MessageReadState>> {
    const uuids = new Set(filters.flatMap((filter) => filter.children.filter(isPreviousStepPart).map((part) => part.step)));
    if (uuids.size === 0) return {};
    const jobs = await this.jobs.findByNotificationIds(context.scope, [context.job.notificationId]);
    const states: Record<string, MessageReadState> = {};
    for (const uuid of uuids) {
      const step = context.workflow.steps.find((candidate) => candidate.uuid === uuid);
      const job = step && jobs.find((candidate) => candidate.stepId === step.id);
      if (!job) continue;
      const messages = await this.messages.findByJobId(job.id);
      const opened = new Set<string>();
      for (const message of messages) {
        // An email's opening is known from its provider's events; one marked already needs none.
        if (message.channel !== 'email' || (message.seen && message.read)) continue;
        const events = await this.events.listByMessage(message.id);
        if (events.some((event) => EMAIL_OPENING_EVENTS.includes(event.type))) opened.add(message.id);
      }
      const state = messagesReadState(messages, opened);
      if (state) states[uuid] = state;
    }
    return states;
  }
}
