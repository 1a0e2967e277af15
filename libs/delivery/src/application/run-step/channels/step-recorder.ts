import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { ExecutionDetailSource, ExecutionDetailStatus, createExecutionDetail } from '../../../domain/execution-detail';
import { Message, MessageActor, MessageCta, messagePayload } from '../../../domain/message';
import type { StepActor } from '@app/workflows';
import { StepContext } from '../step-context';

/** What a channel step rendered, as the message keeps it. */
export interface RenderedMessage {
  /** Text or HTML; an email written in editor blocks keeps its rendered blocks. */
  content: Message['content'];
  subject?: string;
  title?: string;
  cta?: MessageCta;
  /** A v2 in-app step's own avatar (else the actor's). */
  avatar?: string;
  /** A v2 in-app step's data. */
  data?: Record<string, unknown>;
}

export interface MessageDraft {
  id: string;
  providerId?: string;
  rendered: RenderedMessage;
  status: Message['status'];
  /** Where it goes: email, phone, deviceTokens or directWebhookUrl. */
  fields?: Partial<Message>;
  errorText?: string;
  errorId?: string;
}

/** Builds the records of a channel step (messages, execution details) the same way for every channel. */
@Injectable()
export class StepRecorder {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  message(context: StepContext, draft: MessageDraft): Message {
    const { job, workflow, step, actor } = context;
    const now = this.clock.now();
    return {
      id: draft.id,
      organizationId: job.organizationId,
      environmentId: job.environmentId,
      notificationId: job.notificationId,
      jobId: job.id,
      subscriberId: job.subscriberId,
      workflowId: workflow.id,
      templateIdentifier: workflow.trigger.identifier,
      stepId: step.id,
      transactionId: job.transactionId,
      channel: job.type as Message['channel'],
      providerId: draft.providerId,
      status: draft.status,
      errorText: draft.errorText,
      errorId: draft.errorId,
      content: draft.rendered.content,
      subject: draft.rendered.subject,
      title: draft.rendered.title,
      cta: draft.rendered.cta,
      avatar: draft.rendered.avatar ?? actor?.avatar,
      ...(draft.rendered.data ? { data: draft.rendered.data } : {}),
      actorSubscriberId: actor?.id,
      ...messageActor(job.type, step.template.actor, actor !== undefined),
      read: false,
      seen: false,
      archived: false,
      deliveredAt: draft.status === 'sent' ? [now] : [],
      payload: messagePayload(job.payload),
      overrides: job.overrides,
      tags: workflow.tags,
      createdAt: now,
      updatedAt: now,
      ...draft.fields,
    };
  }

  /** Records a line of the job's history (`on`: a step's context, or the job and its session when there is no step to run). */
  detail(
    on: Pick<StepContext, 'session' | 'job'>,
    status: ExecutionDetailStatus,
    detail: string,
    options: { raw?: unknown; source?: ExecutionDetailSource; providerId?: string } = {},
  ): void {
    on.session.appendDetail(
      createExecutionDetail(
        { job: on.job, status, detail, raw: options.raw, source: options.source ?? 'Internal', providerId: options.providerId },
        this.clock.now(),
      ),
    );
  }

  now(): Date {
    return this.clock.now();
  }
}

/**
 * An in-app message's `actor`, as Novu: the step's avatar option unless it is `none`; with no option,
 * a trigger's actor shows as `user` (its avatar).
 */
function messageActor(channel: string, option: StepActor | undefined, hasActor: boolean): { actor?: MessageActor } {
  if (channel !== 'in_app') return {};
  if (option) return option.type === 'none' ? {} : { actor: { type: option.type, data: option.data } };
  return hasActor ? { actor: { type: 'user', data: null } } : {};
}
