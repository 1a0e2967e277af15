import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Integration, isSecretCredential } from '@app/integrations';
import {
  DeliveryOutcome,
  METRICS,
  Metrics,
  OUTBOUND_EVENTS,
  OutboundEvents,
  DeferredJobError,
  RetryableJobError,
  deterministicId,
  noOutboundEvents,
  noopMetrics,
} from '@app/kernel';
import { DETAIL, providerSelectedDetail } from '../../../domain/execution-detail';
import { MESSAGE_ERROR_IDS, Message, messageEventObject } from '../../../domain/message';
import { ProviderOverrides, providerOverrides } from '../../../domain/provider-overrides';
import { redactSecrets } from '../../../domain/redact';
import {
  ChannelMessages,
  DeliveryChannel,
  PROVIDER_REGISTRY,
  ProviderError,
  ProviderRegistry,
  SendResult,
  isProviderError,
} from '../../../ports/channel-provider.port';
import { StepContext } from '../step-context';
import { StepOutcome } from '../step-outcome';
import { RenderedMessage, StepRecorder } from './step-recorder';
import { HeldReason, VendorHeldError, VendorPacing } from './vendor-pacing';

const SEND_TIMEOUT_MS = 15_000;

/** One address a channel step delivers to through one integration. */
export interface DeliveryTarget<C extends DeliveryChannel> {
  /** What the message goes to (email, phone, token, webhook URL): part of the message id. */
  address: string;
  /** Message fields that say where it went (email, phone, deviceTokens, directWebhookUrl). */
  fields: Record<string, unknown>;
  /** Values that must never reach an execution detail (a webhook URL whose path is a credential). */
  secrets?: string[];
  /** The provider's message for this target. */
  build(messageId: string, overrides: ProviderOverrides): ChannelMessages[C];
  /** The vendor says this address is gone for good (a dead push token): forget it; returns what was forgotten, for the detail. */
  forget?(): Promise<Record<string, unknown> | undefined>;
}

/** One delivery and the integrations it may go through: the selected one first, then its fallbacks. */
export interface DeliveryUnit<C extends DeliveryChannel> {
  chain: Integration[];
  /** The targets of this delivery through one integration of the chain (none: skip it). */
  targets(integration: Integration): DeliveryTarget<C>[];
}

type AttemptResult = (
  | { kind: 'sent'; providerId: string }
  /** Failed for good; `exhausted` when it was retryable but this was the last attempt; `earlier` when a previous run recorded it. */
  | { kind: 'final'; reason: string; exhausted: boolean; earlier: boolean }
  /** `reason`: the error message, secrets masked. */
  | { kind: 'retry'; error: ProviderError; reason: string }
) & {
  /** Set when this run made the attempt (not when it found an earlier run's outcome): what metrics and logs report. */
  made?: { providerId: string; durationMs?: number };
};

type UnitResult =
  | { kind: 'delivered'; providerId: string }
  | { kind: 'failed'; reason: string; providerId?: string }
  | { kind: 'retry'; retryAfterMs?: number }
  | { kind: 'failover'; from: Integration; to: Integration };

/**
 * Sends a rendered channel step through providers: per target, a message under a deterministic id
 * (so a redelivered job finds it), the provider call with that id as idempotency key, an execution
 * detail per attempt (vendor answer, secrets masked), and the outcome on the message. A target
 * that fails for good moves its delivery to the next integration of the chain (failover); a
 * retryable failure sends the job back to the queue with backoff.
 */
@Injectable()
export class ProviderDelivery {
  private readonly logger = new Logger(ProviderDelivery.name);

  constructor(
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
    private readonly recorder: StepRecorder,
    private readonly pacing: VendorPacing,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async deliver<C extends DeliveryChannel>(context: StepContext, channel: C, units: DeliveryUnit<C>[], rendered: RenderedMessage): Promise<StepOutcome> {
    const results: UnitResult[] = [];
    for (const unit of units) results.push(await this.deliverUnit(context, channel, unit, rendered));

    const failover = results.find((result): result is Extract<UnitResult, { kind: 'failover' }> => result.kind === 'failover');
    const retries = results.filter((result): result is Extract<UnitResult, { kind: 'retry' }> => result.kind === 'retry');
    const wait = Math.max(0, ...retries.map((retry) => retry.retryAfterMs ?? 0));
    if (failover) {
      // Other deliveries of the step waiting for a retry go along with the fresh run.
      return {
        kind: 'failover',
        queueJobId: `${context.job.id}:failover:${failover.from.id}:${failover.to.id}`,
        delayMs: retries.length ? Math.max(wait, 1_000) : 0,
      };
    }
    if (retries.length) throw new RetryableJobError('Provider asked for a retry', wait || undefined);
    const delivered = results.find((result): result is Extract<UnitResult, { kind: 'delivered' }> => result.kind === 'delivered');
    if (delivered) return { kind: 'completed', providerId: delivered.providerId };
    const failed = results.find((result): result is Extract<UnitResult, { kind: 'failed' }> => result.kind === 'failed');
    return { kind: 'failed', reason: failed?.reason ?? DETAIL.PROVIDER_ERROR, ...(failed?.providerId ? { providerId: failed.providerId } : {}) };
  }

  private async deliverUnit<C extends DeliveryChannel>(
    context: StepContext,
    channel: C,
    unit: DeliveryUnit<C>,
    rendered: RenderedMessage,
  ): Promise<UnitResult> {
    let reason: string = DETAIL.PROVIDER_ERROR;
    let tried: Integration | undefined;
    // The chain, then (once every hop is held and the first has no fallbacks) the channel's other integrations.
    const hops = [...unit.chain];
    let standby: number | undefined;
    const moveOn = async (hop: number, held: HeldReason): Promise<boolean> => {
      if (!hops[hop + 1] && standby === undefined) {
        standby = hops.length;
        hops.push(...(await this.pacing.standby(context.scope, channel, unit.chain, context.job.overrides)));
      }
      const next = hops[hop + 1];
      if (!next) return false;
      this.recorder.detail(context, 'Warning', heldDetail(held, standby !== undefined && hop + 1 >= standby), {
        raw: { from: hops[hop].identifier, to: next.identifier, reason: held },
        providerId: hops[hop].providerId,
      });
      return true;
    };
    for (let hop = 0; hop < hops.length; hop++) {
      const integration = hops[hop];
      const targets = unit.targets(integration);
      if (!targets.length) {
        if (standby !== undefined && hop >= standby) continue; // not the subscriber's: the next one is tried
        this.recorder.detail(context, 'Warning', DETAIL.FALLBACK_INTEGRATION_SKIPPED, {
          raw: { integration: integration.identifier },
          providerId: integration.providerId,
          source: 'Credentials',
        });
        continue;
      }
      // Held now (pushback, open circuit) and somewhere else to go: no message stored here, no call made.
      const held = await this.pacing.held(integration);
      if (held && (await moveOn(hop, held))) continue;
      tried = integration;
      const results: AttemptResult[] = [];
      try {
        for (const target of targets) results.push(await this.attempt(context, channel, integration, target, rendered));
      } catch (error) {
        // Held on the way (the circuit opened, the vendor pushed back): on to the next integration, else the job waits.
        if (!(error instanceof VendorHeldError) || !(await moveOn(hop, error.reason))) throw error;
        // The message stored here before the held call was not sent through this integration: it says where the delivery went.
        const errorText = `Not sent through ${integration.identifier} (${error.reason.replace('_', ' ')}): the delivery went to ${hops[hop + 1].identifier}`;
        const heldMessage = deterministicId(context.job.id, integration.id, targets[results.length].address);
        context.session.updateMessage(heldMessage, { status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText });
        continue;
      }

      const sent = results.find((result): result is Extract<AttemptResult, { kind: 'sent' }> => result.kind === 'sent');
      const retries = results.filter((result): result is Extract<AttemptResult, { kind: 'retry' }> => result.kind === 'retry');
      // A failure for good moves on along the chain only: standby integrations take held deliveries.
      const next: Integration | undefined = hop + 1 < unit.chain.length ? hops[hop + 1] : undefined;
      this.report(context, channel, integration, results, sent || retries.length ? undefined : next);
      if (sent) return { kind: 'delivered', providerId: sent.providerId };
      if (retries.length) return { kind: 'retry', retryAfterMs: Math.max(0, ...retries.map((retry) => retry.error.retryAfterMs ?? 0)) || undefined };

      const finals = results as Extract<AttemptResult, { kind: 'final' }>[];
      reason = finals[0].reason;
      if (!next) break;
      if (finals.every((final) => final.earlier)) continue; // a previous run already moved on
      this.recorder.detail(context, 'Pending', DETAIL.FALLBACK_INTEGRATION_SELECTED, {
        raw: { from: integration.identifier, to: next.identifier, reason },
        providerId: next.providerId,
      });
      // Retries used up here: the fallback gets a fresh run with a whole retry budget.
      if (finals.some((final) => final.exhausted)) return { kind: 'failover', from: integration, to: next };
    }
    // The job names the provider of its last message, as the message does.
    return { kind: 'failed', reason, ...(tried ? { providerId: tried.providerId } : {}) };
  }

  private async attempt<C extends DeliveryChannel>(
    context: StepContext,
    channel: C,
    integration: Integration,
    target: DeliveryTarget<C>,
    rendered: RenderedMessage,
  ): Promise<AttemptResult> {
    const { job, step } = context;
    const messageId = deterministicId(job.id, integration.id, target.address);
    const { message, created } = await context.session.storeMessage(
      this.recorder.message(context, {
        id: messageId,
        providerId: integration.providerId,
        rendered,
        status: 'warning',
        fields: target.fields,
        errorText: 'Not delivered yet',
      }),
    );
    // An earlier run ended this message; it may have crashed before publishing the event (same key: published once).
    if (message.status === 'sent') {
      await this.publish(context, message, 'message.sent');
      return { kind: 'sent', providerId: integration.providerId };
    }
    if (message.status === 'error') {
      await this.publish(context, message, 'message.failed');
      return { kind: 'final', reason: message.errorText ?? DETAIL.PROVIDER_ERROR, exhausted: false, earlier: true };
    }

    const provider = this.providers.get(channel, integration.providerId);
    if (!provider) {
      const reason = `Provider ${integration.providerId} cannot deliver ${channel} messages`;
      context.session.updateMessage(messageId, { status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText: reason });
      await this.publish(context, { ...message, status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText: reason }, 'message.failed');
      this.recorder.detail(context, 'Failed', reason, { providerId: integration.providerId });
      return { kind: 'final', reason, exhausted: false, earlier: false, made: { providerId: integration.providerId } };
    }

    const secrets = [...secretValues(integration), ...(target.secrets ?? [])];
    const overrides = providerOverrides(job.overrides, channel, provider.id, [step.id, step.uuid, step.name].filter(Boolean));
    // Once per message: a job deferred for the integration's pace comes back to the message it stored.
    if (created) this.recorder.detail(context, 'Pending', providerSelectedDetail(provider.id), { providerId: provider.id });
    let result: SendResult;
    const started = performance.now();
    try {
      const send = () =>
        provider.send(target.build(messageId, overrides), integration.credentials, {
          idempotencyKey: messageId,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          overrides: overrides.data,
          ...(overrides.passthrough ? { passthrough: overrides.passthrough } : {}),
        });
      result = await this.pacing.call(
        integration,
        send,
        (status, detail, raw) => this.recorder.detail(context, status, detail, { raw, providerId: provider.id }),
        target.address,
      );
    } catch (thrown) {
      // Waiting for the integration's pace (its limits, the vendor's pushback, an open circuit) spends no attempt.
      if (thrown instanceof DeferredJobError) throw thrown;
      const made = { providerId: provider.id, durationMs: performance.now() - started };
      const error = isProviderError(thrown) ? thrown : new ProviderError('retryable', (thrown as Error).message, { cause: thrown });
      return { ...(await this.failed(context, provider.id, message, target, error, secrets)), made };
    }
    const made = { providerId: provider.id, durationMs: performance.now() - started };
    const deliveredAt = this.recorder.now();
    context.session.updateMessage(messageId, { status: 'sent', identifier: result.id, deliveredAt });
    await this.publish(
      context,
      { ...message, status: 'sent', errorText: undefined, identifier: result.id, deliveredAt: [...message.deliveredAt, deliveredAt], updatedAt: deliveredAt },
      'message.sent',
    );
    this.recorder.detail(context, 'Success', DETAIL.MESSAGE_SENT, { raw: redactSecrets(result, secrets), providerId: provider.id });
    return { kind: 'sent', providerId: provider.id, made };
  }

  /**
   * Counts the attempts this run made through one integration and logs each that did not succeed;
   * `movingTo` is the fallback the delivery moves on to when it does.
   */
  private report(context: StepContext, channel: DeliveryChannel, integration: Integration, results: AttemptResult[], movingTo: Integration | undefined): void {
    for (const result of results) {
      if (!result.made) continue;
      const outcome: DeliveryOutcome = result.kind === 'sent' ? 'sent' : result.kind === 'retry' ? 'retried' : movingTo ? 'failed_over' : 'failed';
      this.metrics.delivery(channel, result.made.providerId, outcome, result.made.durationMs);
      if (result.kind === 'sent') continue;
      this.logger.warn(
        `Delivery ${outcome}: job ${context.job.id}, ${channel} through ${result.made.providerId} (integration ${integration.identifier}` +
          `${movingTo ? `, next ${movingTo.identifier}` : ''}), attempt ${context.attempt.number} of ${context.attempt.allowed}: ${result.reason}`,
      );
    }
  }

  /** The message.sent / message.failed event of a message, keyed by its id (a rerun publishes it once). */
  private publish(context: StepContext, message: Message, type: 'message.sent' | 'message.failed'): Promise<void> {
    return this.events.publish(context.scope, {
      type,
      key: message.id,
      object: messageEventObject(message, context.subscriber.subscriberId),
      ...(type === 'message.failed'
        ? { error: { message: message.errorText ?? DETAIL.PROVIDER_ERROR, code: message.errorId ?? MESSAGE_ERROR_IDS.providerError } }
        : {}),
    });
  }

  private async failed(
    context: StepContext,
    providerId: string,
    message: Message,
    target: DeliveryTarget<DeliveryChannel>,
    error: ProviderError,
    secrets: string[],
  ): Promise<AttemptResult> {
    const willRetry = error.retryable && !context.attempt.isLast;
    const reason = redactSecrets(error.message, secrets);
    this.recorder.detail(
      context,
      willRetry ? 'Warning' : 'Failed',
      willRetry ? DETAIL.PROVIDER_RETRY_SCHEDULED : error.retryable ? DETAIL.PROVIDER_RETRIES_EXHAUSTED : DETAIL.PROVIDER_ERROR,
      {
        raw: redactSecrets(
          {
            kind: error.kind,
            status: error.status,
            code: error.providerCode,
            message: error.message,
            attempt: context.attempt.number,
            retryAfterMs: error.retryAfterMs,
            vendor: error.raw,
          },
          secrets,
        ),
        providerId,
      },
    );
    if (error.kind === 'invalid_recipient' && target.forget) {
      const forgotten = await target.forget();
      if (forgotten) this.recorder.detail(context, 'Warning', DETAIL.DEVICE_TOKEN_REMOVED, { raw: forgotten, providerId, source: 'Credentials' });
    }
    if (willRetry) return { kind: 'retry', error, reason };
    context.session.updateMessage(message.id, { status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText: reason });
    await this.publish(
      context,
      { ...message, status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText: reason, updatedAt: this.recorder.now() },
      'message.failed',
    );
    return { kind: 'final', reason, exhausted: error.retryable, earlier: false };
  }
}

/** The detail of a held delivery moving on, along its chain or to a standby integration of the channel. */
function heldDetail(held: HeldReason, toStandby: boolean): string {
  if (held === 'circuit_open') return toStandby ? DETAIL.CIRCUIT_OPEN_STANDBY : DETAIL.CIRCUIT_OPEN_FAILOVER;
  return toStandby ? DETAIL.PUSHBACK_STANDBY : DETAIL.PUSHBACK_FAILOVER;
}

/** The integration's secret credential values, masked wherever a vendor echoes them. */
function secretValues(integration: Integration): string[] {
  return Object.entries(integration.credentials)
    .filter(([key, value]) => isSecretCredential(key) && typeof value === 'string')
    .map(([, value]) => value as string);
}
