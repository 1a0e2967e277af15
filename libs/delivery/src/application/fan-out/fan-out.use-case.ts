import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, JOB_QUEUE, RetryableJobError, isPermanentFailure } from '@app/kernel';
import {
  SUBSCRIBER_REPOSITORY,
  Subscriber,
  SubscriberChanges,
  SubscriberRepository,
  TOPIC_REPOSITORY,
  TopicRepository,
  UpdateSubscriberCredentials,
  UpsertSubscribers,
  subscriptionAllows,
} from '@app/subscribers';
import { TENANT_REPOSITORY, TenantRepository } from '@app/tenants';
import { WORKFLOW_REPOSITORY, WorkflowRepository, payloadWithDefaults } from '@app/workflows';
import { InlineSubscriber, parseActor, parseRecipients, parseTenant } from '../../domain/recipients';
import { Job } from '../../domain/job';
import { Notification } from '../../domain/notification';
import { callsOut } from '../../domain/step-type';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';
import { FanOutJobData, PIPELINE_JOB_OPTIONS, PipelineQueue, STEPS_QUEUE, firstAttempt, stepJob, stepRetryJob } from '../queues';
import { ChainSession } from '../run-step/chain-session';
import { ChainSessions } from '../run-step/chain-sessions';
import { RunStep } from '../run-step/run-step.use-case';
import { RecipientContext, buildNotification } from './build-notification';

/** Topic members are read, and their notifications written and delivered, this many at a time at most. */
export const FAN_OUT_BATCH_SIZE = 500;
/**
 * ...and fewer when the payload is large: every notification, job and message of a batch carries a
 * copy of it, so a 400 KB payload in batches of 500 would hold a gigabyte in the worker at once.
 */
const FAN_OUT_BATCH_PAYLOAD_BYTES = 8 * 1024 * 1024;

export function fanOutBatchSize(payload: Record<string, unknown>): number {
  const bytes = Buffer.byteLength(JSON.stringify(payload ?? {}));
  return Math.max(1, Math.min(FAN_OUT_BATCH_SIZE, Math.floor(FAN_OUT_BATCH_PAYLOAD_BYTES / Math.max(bytes, 1))));
}

const changesOf = ({ subscriberId: _id, channels: _channels, ...changes }: InlineSubscriber): SubscriberChanges => changes;

/**
 * Worker side of a trigger: resolve recipients (upsert inline subscribers and the actor, expand
 * topics, or for a broadcast every subscriber, in batches), write one Notification + Jobs per subscriber in bulk, enqueue first steps
 * in bulk. Everything it writes has a deterministic id, so running it twice changes nothing.
 */
@Injectable()
export class FanOut {
  private readonly logger = new Logger(FanOut.name);

  constructor(
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly upsertSubscribers: UpsertSubscribers,
    private readonly updateCredentials: UpdateSubscriberCredentials,
    private readonly sessions: ChainSessions,
    private readonly runStep: RunStep,
  ) {}

  /**
   * The triggers of one fan-out job, each on its own: one that fails for good (data the store
   * refuses) is marked `failed` and logged once, and never holds up the others; one that fails for
   * a passing reason fails the job, whose retry skips the triggers already done.
   */
  async execute(data: FanOutJobData): Promise<void> {
    // `triggerId`: a job enqueued by a version that gave each trigger its own job
    const ids = data.triggerIds ?? [(data as unknown as { triggerId: string }).triggerId];
    const outcomes = await Promise.allSettled(ids.map((id) => this.fanOutTrigger(id)));
    let retry: Error | undefined;
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') continue;
      if (!isPermanentFailure(outcome.reason)) {
        retry ??= outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
        continue;
      }
      if (await this.triggers.markStatus(ids[index], ['accepted'], 'failed')) {
        this.logger.warn(`Trigger ${ids[index]} failed for good and will not be retried: ${(outcome.reason as Error).message}`);
      }
    }
    if (retry) throw retry;
  }

  private async fanOutTrigger(triggerId: string): Promise<void> {
    const trigger = await this.triggers.findById(triggerId);
    if (!trigger || trigger.status === 'canceled' || trigger.status === 'processed') return;
    const scope: EnvironmentScope = { organizationId: trigger.organizationId, environmentId: trigger.environmentId };
    // A trigger names its workflow by id; one changed or deleted seconds ago may still fan out as it
    // was (the repository caches this read for a moment).
    const workflow = await this.workflows.findByIdIncludingDeleted(scope, trigger.workflowId);
    if (!workflow || workflow.deletedAt) {
      this.logger.warn(`Trigger ${trigger.transactionId}: workflow ${trigger.workflowId} is gone; nothing to deliver`);
      await this.triggers.markStatus(trigger.id, ['accepted'], 'processed');
      return;
    }
    const now = this.clock.now();
    const context: RecipientContext = { trigger, workflow, now };

    const tenant = parseTenant(trigger.tenant).tenant;
    if (tenant) {
      const { name, data } = tenant;
      const stored =
        name !== undefined || data !== undefined
          ? (await this.tenants.upsert(scope, tenant.identifier, { name, data }, { newId: trigger.id, now })).tenant
          : await this.tenants.findByIdentifier(scope, tenant.identifier);
      context.tenant = stored ? { identifier: stored.identifier, name: stored.name, data: stored.data } : { identifier: tenant.identifier };
    }
    const actor = parseActor(trigger.actor).actor;
    if (actor) {
      const [upserted] = await this.upsertSubscribers.execute({ scope, subscribers: [{ subscriberId: actor.subscriberId, changes: changesOf(actor) }] });
      context.actorId = upserted.subscriber.subscriberId; // the caller's id: jobs look the actor up by it
    }

    const { subscribers: inline, topics } = parseRecipients(trigger.to).recipients;
    const explicit = await this.upsertInline(scope, inline);
    // Sizing serialises the payload: a lone recipient (most triggers) is one batch at any size.
    const batchSize = explicit.length > 1 || topics.length || trigger.broadcast ? fanOutBatchSize(trigger.payload) : 1;
    for (let start = 0; start < explicit.length; start += batchSize) await this.deliverTo(scope, explicit.slice(start, start + batchSize), context);

    // Topic members: explicit recipients, each topic's `exclude` and the actor are left out;
    // a subscriber in several topics gets one notification. A member whose subscription turns
    // this workflow off (or whose condition the payload fails) is skipped for this topic, and
    // reached through another of its topics whose subscription lets it through, as Novu.
    const seen = new Set(inline.map((s) => s.subscriberId));
    if (actor) seen.add(actor.subscriberId);
    const payload = topics.length ? payloadWithDefaults(trigger.payload, workflow) : trigger.payload;
    for (const topicRecipient of topics) {
      const topic = await this.topics.findByKey(scope, topicRecipient.topicKey);
      if (!topic) {
        this.logger.warn(`Trigger ${trigger.transactionId}: topic ${topicRecipient.topicKey} does not exist`);
        continue;
      }
      const excluded = new Set(topicRecipient.exclude);
      const topicContext = { ...context, topic: { topicId: topic.id, topicKey: topic.key } };
      const completed = await this.deliverInBatches(scope, trigger.id, topicContext, async (cursor) => {
        const batch = await this.topics.listMembersFor(scope, topic.key, workflow.id, cursor, batchSize);
        const members = batch.members.filter((m) => !seen.has(m.subscriberId) && !excluded.has(m.subscriberId));
        const ids = members.filter((m) => subscriptionAllows(m.preference, payload)).map((m) => m.subscriberId);
        if (ids.length < members.length) {
          this.logger.log(
            `Trigger ${trigger.transactionId}: ${members.length - ids.length} member(s) of topic ${topic.key} skipped, their subscription preferences turn workflow ${workflow.trigger.identifier} off for this payload`,
          );
        }
        ids.forEach((id) => seen.add(id));
        return { subscribers: ids.length ? await this.subscribers.findManyBySubscriberIds(scope, ids) : [], next: batch.next };
      });
      if (!completed) return;
    }
    // A broadcast reaches every subscriber of the environment (the actor too, as in Novu), read in
    // pages by id: one page is held while the one before it delivers, whatever the audience size.
    if (trigger.broadcast && !(await this.deliverInBatches(scope, trigger.id, context, (cursor) => this.subscribers.listBatch(scope, cursor, batchSize)))) {
      return;
    }
    await this.triggers.markStatus(trigger.id, ['accepted'], 'processed');
  }

  /**
   * Delivers to the recipients `read` gives a batch at a time, the next batch read while the one
   * before it delivers (the store is busy with both at once). False when a cancel stopped it: a
   * cancel during a long fan-out stops the rest of it.
   */
  private async deliverInBatches(
    scope: EnvironmentScope,
    triggerId: string,
    context: RecipientContext,
    read: (cursor: string | null) => Promise<{ subscribers: Subscriber[]; next: string | null }>,
  ): Promise<boolean> {
    let delivering: Promise<void> = Promise.resolve();
    let cursor: string | null = null;
    do {
      const batch = await read(cursor);
      cursor = batch.next;
      if (!batch.subscribers.length) continue;
      await delivering;
      if ((await this.triggers.findById(triggerId))?.status === 'canceled') return false;
      delivering = this.deliverTo(scope, batch.subscribers, context);
      delivering.catch(() => undefined); // awaited above or below; this only keeps it from counting as unhandled meanwhile
    } while (cursor);
    await delivering;
    return true;
  }

  private async upsertInline(scope: EnvironmentScope, inline: InlineSubscriber[]): Promise<Subscriber[]> {
    if (!inline.length) return [];
    const results = await this.upsertSubscribers.execute({
      scope,
      subscribers: inline.map((s) => ({ subscriberId: s.subscriberId, changes: changesOf(s) })),
    });
    const byId = new Map(results.map((r) => [r.subscriber.subscriberId, r.subscriber]));
    for (const subscriber of inline) {
      for (const channel of subscriber.channels ?? []) {
        try {
          const updated = await this.updateCredentials.execute({
            scope,
            subscriberId: subscriber.subscriberId,
            providerId: channel.providerId,
            integrationIdentifier: channel.integrationIdentifier,
            credentials: channel.credentials,
            mode: 'append',
          });
          byId.set(subscriber.subscriberId, { ...byId.get(subscriber.subscriberId)!, channels: updated.subscriber.channels });
        } catch (error) {
          this.logger.warn(`Credentials of ${subscriber.subscriberId} for ${channel.providerId} not stored: ${(error as Error).message}`);
        }
      }
    }
    return [...byId.values()];
  }

  /**
   * Builds each subscriber's notification and chain and runs its first step against a session of it
   * (ChainSession), all of the batch at once, then writes the batch's sessions in one write: a
   * notification with its jobs as the step left them, its message and details. A first step that
   * calls out (a vendor, an HTTP request step's endpoint) is written as built and goes to the steps
   * queue: a stalled endpoint then holds steps-queue slots, never the fan-out slots every
   * environment's triggers pass through. (A queue job per delivery would cost more than the delivery.)
   */
  private async deliverTo(scope: EnvironmentScope, subscribers: Subscriber[], context: RecipientContext): Promise<void> {
    if (!subscribers.length) return;
    const built = subscribers.map((subscriber) => ({ subscriber, ...buildNotification(scope, subscriber, context) }));
    const sessions = await Promise.all(built.map(({ notification, jobs, subscriber }) => this.runFirstStep(notification, jobs, subscriber)));
    const written = await this.sessions.flush(sessions);
    // A notification that existed (a redelivered fan-out) carries on from the store. The queue
    // deduplicates by job id, so nothing is added twice.
    const carryOn = built.flatMap(({ jobs: [first] }, index) => (!written[index] && first ? [stepJob(first.id, { jobId: first.id })] : []));
    if (carryOn.length) await this.queue.addBulk(STEPS_QUEUE, carryOn);
  }

  /** The session of a new chain, its first step run against it unless it calls out; the session's flush hands the step on. */
  private async runFirstStep(notification: Notification, jobs: Job[], subscriber: Subscriber): Promise<ChainSession> {
    const [first] = jobs;
    const session = this.sessions.openNew(notification, jobs);
    if (!first) return session;
    if (callsOut(first.type)) {
      session.enqueue(stepJob(first.id, { jobId: first.id }));
      return session;
    }
    const attempt = firstAttempt();
    try {
      await this.runStep.runIn(session, { jobId: first.id, attempt }, subscriber);
      return session;
    } catch (error) {
      // The chain is written as built, and the step's next attempt goes to the steps queue, which counts on from this one.
      const retryable = error instanceof RetryableJobError;
      if (!retryable) this.logger.error(`First step ${first.id} failed unexpectedly; it goes to the queue for another attempt: ${(error as Error).stack}`);
      const delayMs = retryable && error.retryAfterMs !== undefined ? error.retryAfterMs : PIPELINE_JOB_OPTIONS.backoff.delayMs;
      const asBuilt = this.sessions.openNew(notification, jobs);
      asBuilt.enqueue(stepRetryJob(first.id, attempt.next(), delayMs));
      return asBuilt;
    }
  }
}
