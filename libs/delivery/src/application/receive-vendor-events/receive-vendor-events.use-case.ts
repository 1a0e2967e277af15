import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '@app/environments';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '@app/integrations';
import {
  CLOCK,
  Clock,
  EnvironmentScope,
  NotFoundError,
  OUTBOUND_EVENTS,
  OutboundEvents,
  deterministicId,
  isId,
  noOutboundEvents,
  systemClock,
} from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { VendorDeliveryEvent, deliveryEventDetail, outboundEventOf, suppressesAddress, suppressionAddress } from '../../domain/delivery-event';
import { createExecutionDetail } from '../../domain/execution-detail';
import { Message } from '../../domain/message';
import { DELIVERY_EVENT_REPOSITORY, DeliveryEventRepository } from '../../ports/delivery-event.repository.port';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';
import { SUPPRESSION_REPOSITORY, SuppressionRepository } from '../../ports/suppression.repository.port';
import { messageEvents } from '../message-events';
import {
  DELIVERY_EVENT_OPTIONS,
  DeliveryEventOptions,
  InboundWebhookRequest,
  SUBSCRIPTION_CONFIRMER,
  SubscriptionConfirmer,
  VENDOR_EVENT_SOURCES,
  VendorEventSources,
} from '../../ports/vendor-events.port';

/** Inbound webhooks are off for this integration (or there is no such integration): the vendor is refused. */
export class InboundWebhookNotEnabledError extends NotFoundError {
  constructor() {
    super('inbound_webhook_not_enabled', 'No integration with inbound webhooks enabled at this address');
  }
}

export interface ReceiveVendorEventsCommand {
  environmentId: string;
  integrationId: string;
  request: InboundWebhookRequest;
}

export interface ReceiveVendorEventsResult {
  /** Events applied now. */
  recorded: number;
  /** Events seen before (a vendor retry). */
  duplicates: number;
  /** Events about messages we do not know (acknowledged so the vendor stops retrying). */
  unknown: number;
  /** A verified subscription handshake (Amazon SNS), and whether visiting its URL confirmed it. */
  subscription?: { topic: string; confirmed: boolean };
}

/**
 * POST /v2/inbound-webhooks/delivery-providers/{environmentId}/{integrationId}: a vendor's event
 * webhook. The integration must have inbound webhooks enabled; the vendor's signature is checked
 * before anything is read (401, nothing recorded). Each event then becomes an execution detail on
 * its message's job, the message's latest delivery state, for a hard bounce or spam report a
 * suppression of the address, and an outbound event (message.delivered, message.seen or
 * message.failed, once per message and type). Every effect is idempotent (deterministic detail id, a state only
 * moved forward in time, insert-if-absent suppression) and the event's record is written last, so
 * a replay after a crash completes what was missing and a replay after success changes nothing.
 */
@Injectable()
export class ReceiveVendorEvents {
  private readonly logger = new Logger(ReceiveVendorEvents.name);

  constructor(
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(VENDOR_EVENT_SOURCES) private readonly sources: VendorEventSources,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
    @Inject(DELIVERY_EVENT_REPOSITORY) private readonly events: DeliveryEventRepository,
    @Inject(SUPPRESSION_REPOSITORY) private readonly suppressions: SuppressionRepository,
    @Inject(SUBSCRIPTION_CONFIRMER) private readonly confirmer: SubscriptionConfirmer,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Optional() @Inject(DELIVERY_EVENT_OPTIONS) private readonly options: DeliveryEventOptions = { suppressAddresses: true },
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly outbound: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(command: ReceiveVendorEventsCommand): Promise<ReceiveVendorEventsResult> {
    if (!isId(command.environmentId) || !isId(command.integrationId)) throw new InboundWebhookNotEnabledError();
    const environment = await this.environments.findEnvironment(command.environmentId);
    if (!environment) throw new InboundWebhookNotEnabledError();
    const scope: EnvironmentScope = { organizationId: environment.organizationId, environmentId: environment.id };
    const integration = await this.integrations.findById(scope, command.integrationId);
    if (!integration || integration.configurations.inboundWebhookEnabled !== true) throw new InboundWebhookNotEnabledError();
    const source = this.sources.get(integration.providerId);
    if (!source) throw new InboundWebhookNotEnabledError();

    const now = this.clock.now();
    const batch = source.parse(command.request, { credentials: integration.credentials, signingKey: integration.configurations.inboundWebhookSigningKey }, now);
    const result: ReceiveVendorEventsResult = { recorded: 0, duplicates: 0, unknown: 0 };
    if (batch.kind === 'subscription') {
      // The URL came inside a message signed with the configured certificate; it is visited under the outbound network rules.
      const outcome = await this.confirmer.confirm(batch.confirmUrl);
      if (outcome.confirmed) this.logger.log(`Amazon SNS subscription to ${batch.topic} for integration ${integration.identifier} confirmed`);
      else
        this.logger.warn(
          `Amazon SNS subscription to ${batch.topic} for integration ${integration.identifier} not confirmed (${outcome.error ?? 'no 2xx answer'}): ` +
            `confirm it by visiting ${batch.confirmUrl}`,
        );
      return { ...result, subscription: { topic: batch.topic, confirmed: outcome.confirmed } };
    }
    for (const event of batch.events) {
      const outcome = await this.apply(scope, integration.id, integration.providerId, event, now);
      result[outcome]++;
    }
    return result;
  }

  private async apply(
    scope: EnvironmentScope,
    integrationId: string,
    providerId: string,
    event: VendorDeliveryEvent,
    now: Date,
  ): Promise<'recorded' | 'duplicates' | 'unknown'> {
    if (await this.events.exists(integrationId, event.key)) return 'duplicates';
    const message = await this.findMessage(scope, providerId, event);
    if (!message) return 'unknown';

    const detail = deliveryEventDetail(event.type);
    await this.details.append({
      ...createExecutionDetail(
        {
          job: { ...message, id: message.jobId, type: message.channel },
          status: detail.status,
          source: 'Webhook',
          detail: detail.text,
          raw: { event: event.type, occurredAt: event.occurredAt.toISOString(), ...(event.reason ? { reason: event.reason } : {}), vendor: event.raw },
          providerId,
        },
        now,
      ),
      id: deterministicId('delivery-event', integrationId, event.key),
    });
    await this.messages.recordDeliveryState(message.id, { state: event.type, at: event.occurredAt });

    const reason = this.options.suppressAddresses ? suppressesAddress(event) : undefined;
    // An SMS has one number, the one later sends are checked against: vendors spell it their own way (often without the +).
    const address = message.channel === 'sms' ? (message.phone ?? event.recipient) : (event.recipient ?? message.email);
    if (reason && address && (message.channel === 'email' || message.channel === 'sms')) {
      await this.suppressions.insertIfAbsent({
        organizationId: scope.organizationId,
        environmentId: scope.environmentId,
        address: suppressionAddress(address),
        channel: message.channel,
        reason,
        providerId,
        messageId: message.id,
        ...(event.reason ? { detail: event.reason.slice(0, 500) } : {}),
        createdAt: now,
      });
    }
    const outbound = outboundEventOf(event);
    // before the record: a replay after a crash here publishes it again, under the same key (sent once)
    if (outbound)
      await this.outbound.publish(scope, messageEvents(this.subscribers, scope, [{ ...outbound, key: message.id, message, occurredAt: event.occurredAt }]));
    const created = await this.events.insertIfAbsent({
      id: deterministicId('delivery-event-record', integrationId, event.key),
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      integrationId,
      eventKey: event.key,
      messageId: message.id,
      type: event.type,
      occurredAt: event.occurredAt,
      createdAt: now,
    });
    return created ? 'recorded' : 'duplicates';
  }

  /** By our own id when the vendor echoes it, else by the vendor's id; always within the environment and the provider. */
  private async findMessage(scope: EnvironmentScope, providerId: string, event: VendorDeliveryEvent): Promise<Message | null> {
    if (event.messageId && isId(event.messageId)) {
      const message = await this.messages.findById(scope, event.messageId);
      if (message && message.providerId === providerId) return message;
    }
    const ids = event.vendorMessageIds.filter((id) => id.length > 0 && id.length <= 500);
    if (!ids.length) return null;
    return this.messages.findByProviderIdentifier(scope, providerId, ids);
  }
}
