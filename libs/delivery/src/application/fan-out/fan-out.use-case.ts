import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, isPermanentFailure } from '@app/kernel';
import { UpsertSubscribers } from '@app/subscribers';
import { TENANT_REPOSITORY, TenantRepository } from '@app/tenants';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '@app/workflows';
import { TenantRecipient } from '../../domain/recipients';
import { callsVendor } from '../../domain/step-type';
import { recipientsOf } from '../../domain/trigger';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';
import { FanOutJobData } from '../queues';
import { BroadcastRecipients } from './broadcast-recipients';
import { RecipientContext } from './build-notification';
import { InlineRecipients, changesOf } from './inline-recipients';
import { FanOutRun, RecipientSource } from './recipient-source';
import { TopicRecipients } from './topic-recipients';

/** Topic members are read, and their notifications written and delivered, this many at a time at most. */
export const FAN_OUT_BATCH_SIZE = 500;
/**
 * ...and fewer when the payload is large: every notification, job and message of a batch carries a
 * copy of it, so a 400 KB payload in batches of 500 would hold a gigabyte in the worker at once.
 */
const FAN_OUT_BATCH_PAYLOAD_BYTES = 8 * 1024 * 1024;

/**
 * A batch whose chains start with a vendor's step makes its calls at once (NotificationBatches): no more
 * than this many, under the 256 idle connections Node's keep-alive agent keeps per origin (more calls in
 * flight to one vendor open a connection for each beyond them, batch after batch).
 */
export const VENDOR_FAN_OUT_BATCH_SIZE = 200;

export function fanOutBatchSize(payload: Record<string, unknown>): number {
  const bytes = Buffer.byteLength(JSON.stringify(payload ?? {}));
  return Math.max(1, Math.min(FAN_OUT_BATCH_SIZE, Math.floor(FAN_OUT_BATCH_PAYLOAD_BYTES / Math.max(bytes, 1))));
}

/**
 * Worker side of a trigger: upsert its tenant and actor, then deliver to its recipients source by
 * source (inline, topics, broadcast: RecipientSource), in batches, each batch's notifications and
 * chains written in one write with their first steps run. Everything it writes has a deterministic
 * id, so running it twice changes nothing.
 */
@Injectable()
export class FanOut {
  private readonly logger = new Logger(FanOut.name);
  private readonly sources: RecipientSource[];

  constructor(
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly upsertSubscribers: UpsertSubscribers,
    inline: InlineRecipients,
    topics: TopicRecipients,
    broadcast: BroadcastRecipients,
  ) {
    // In this order: a subscriber named inline is not reached again through a topic.
    this.sources = [inline, topics, broadcast];
  }

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
    const recipients = recipientsOf(trigger);
    const context: RecipientContext = { trigger, workflow, now: this.clock.now() };
    if (recipients.tenant) context.tenant = await this.storedTenant(scope, recipients.tenant, trigger.id, context.now);
    const seen = new Set<string>();
    if (recipients.actor) {
      const { actor } = recipients;
      const [upserted] = await this.upsertSubscribers.execute({ scope, subscribers: [{ subscriberId: actor.subscriberId, changes: changesOf(actor) }] });
      context.actorId = upserted.subscriber.subscriberId; // the caller's id: jobs look the actor up by it
      seen.add(actor.subscriberId);
    }
    // Sizing serialises the payload: a lone recipient (most triggers) is one batch at any size.
    const several = recipients.to.subscribers.length > 1 || recipients.to.topics.length || trigger.broadcast;
    const firstStep = workflow.steps.find((step) => step.active);
    const cap = firstStep && callsVendor(firstStep.template.type) ? VENDOR_FAN_OUT_BATCH_SIZE : FAN_OUT_BATCH_SIZE;
    const batchSize = several ? Math.min(cap, fanOutBatchSize(trigger.payload)) : 1;
    const run: FanOutRun = { scope, recipients, context, batchSize, seen };
    for (const source of this.sources) if (!(await source.deliver(run))) return;
    await this.triggers.markStatus(trigger.id, ['accepted'], 'processed');
  }

  /** The trigger's tenant as its jobs carry it: upserted with the name and data given, else read. */
  private async storedTenant(scope: EnvironmentScope, tenant: TenantRecipient, triggerId: string, now: Date): Promise<Record<string, unknown>> {
    const { identifier, name, data } = tenant;
    const stored =
      name !== undefined || data !== undefined
        ? (await this.tenants.upsert(scope, identifier, { name, data }, { newId: triggerId, now })).tenant
        : await this.tenants.findByIdentifier(scope, identifier);
    return stored ? { identifier: stored.identifier, name: stored.name, data: stored.data } : { identifier };
  }
}
