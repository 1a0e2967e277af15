import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_REPOSITORY, Integration, IntegrationRepository } from '@app/integrations';
import { CLOCK, Channel, Clock, RetryableJobError, deterministicId } from '@app/kernel';
import { SubscriberChannel } from '@app/subscribers';
import { TemplateRenderError } from '../../domain/errors';
import { DETAIL, ExecutionDetailStatus, createExecutionDetail, providerSelectedDetail } from '../../domain/execution-detail';
import { MESSAGE_ERROR_IDS, Message, MessageCta } from '../../domain/message';
import { requestedIntegrationIdentifier, selectCredentialIntegrations, selectIntegration } from '../../domain/select-integration';
import { ChannelProvider, DeliveryChannel, PROVIDER_REGISTRY, ProviderError, ProviderRegistry, isProviderError } from '../../ports/channel-provider.port';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';
import { TEMPLATE_RENDERER, TemplateRenderer } from '../../ports/template-renderer.port';
import { StepContext, stepVariables, subscriberVariables } from './step-context';

export type StepOutcome =
  | { kind: 'completed'; providerId?: string }
  | { kind: 'skipped'; providerId?: string }
  | { kind: 'failed'; reason: string };

const SEND_TIMEOUT_MS = 15_000;

interface RenderedStep {
  content: string;
  subject?: string;
  title?: string;
  cta?: MessageCta;
}

interface Target {
  integration: Integration;
  /** What the message goes to: a webhook URL, a device token, an address. */
  address: string;
  channelEntry?: SubscriberChannel;
}

/**
 * Delivers one channel step: select the integration, render, write the Message (its id comes from
 * the job, so a redelivery finds it), call the provider, record the outcome. Retryable provider
 * failures go back to the queue with backoff; permanent ones fail the step at once.
 */
@Injectable()
export class SendChannelStep {
  constructor(
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
    @Inject(TEMPLATE_RENDERER) private readonly renderer: TemplateRenderer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(context: StepContext): Promise<StepOutcome> {
    const { job, scope, subscriber } = context;
    const channel = job.type as Channel;
    const active = await this.integrations.findActive(scope, { channel });
    let rendered: RenderedStep;
    try {
      rendered = this.render(context);
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      await this.record(context, 'Failed', DETAIL.MESSAGE_CONTENT_NOT_GENERATED, { error: error.message }, 'Payload');
      return { kind: 'failed', reason: DETAIL.MESSAGE_CONTENT_NOT_GENERATED };
    }

    if (channel === 'in_app') {
      const integration = selectIntegration(active, channel, job.overrides, job.tenant);
      if (!integration) return this.noIntegration(context);
      const { created } = await context.writes.insertMessage(this.message(context, job.id, integration, rendered, 'sent', {}));
      if (created) await this.record(context, 'Success', DETAIL.MESSAGE_SENT, undefined, 'Internal', integration.providerId);
      return { kind: 'completed', providerId: integration.providerId };
    }

    const targets = channel === 'chat' || channel === 'push' ? this.credentialTargets(context, channel, active) : this.addressTarget(context, channel, active);
    if ('outcome' in targets) return targets.outcome();
    if (!targets.list.length) return this.noIntegration(context);

    const failures: ProviderError[] = [];
    let delivered = 0;
    for (const target of targets.list) {
      const messageId = deterministicId(job.id, target.integration.id, target.address);
      const { message } = await context.writes.insertMessage(
        this.message(context, messageId, target.integration, rendered, 'warning', this.addressFields(channel, target), 'Not delivered yet'),
      );
      if (message.status === 'sent') {
        delivered++;
        continue; // delivered by an earlier run of this job
      }
      const provider = this.providers.get(channel as DeliveryChannel, target.integration.providerId) as ChannelProvider | undefined;
      if (!provider) {
        const reason = `Provider ${target.integration.providerId} is not supported yet`;
        await this.messages.updateDelivery(messageId, { status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText: reason });
        await this.record(context, 'Failed', reason, undefined, 'Internal', target.integration.providerId);
        failures.push(new ProviderError('permanent', reason));
        continue;
      }
      await this.record(context, 'Pending', providerSelectedDetail(provider.id), undefined, 'Internal', provider.id);
      try {
        const result = await this.send(provider, context, target, rendered, messageId);
        await this.messages.updateDelivery(messageId, { status: 'sent', identifier: result.id, deliveredAt: this.clock.now() });
        await this.record(context, 'Success', DETAIL.MESSAGE_SENT, result, 'Internal', provider.id);
        delivered++;
      } catch (error) {
        const providerError = isProviderError(error) ? error : new ProviderError('retryable', (error as Error).message, { cause: error });
        failures.push(providerError);
        const last = context.attemptsMade + 1 >= context.attempts;
        const willRetry = providerError.retryable && !last;
        await this.record(
          context,
          willRetry ? 'Warning' : 'Failed',
          willRetry ? DETAIL.PROVIDER_RETRY_SCHEDULED : providerError.retryable ? DETAIL.PROVIDER_RETRIES_EXHAUSTED : DETAIL.PROVIDER_ERROR,
          { kind: providerError.kind, status: providerError.status, message: providerError.message, attempt: context.attemptsMade + 1 },
          'Internal',
          provider.id,
        );
        if (!willRetry) {
          await this.messages.updateDelivery(messageId, { status: 'error', errorId: MESSAGE_ERROR_IDS.providerError, errorText: providerError.message });
        }
      }
    }
    const retry = failures.find((failure) => failure.retryable) && context.attemptsMade + 1 < context.attempts;
    if (retry) {
      const wait = Math.max(0, ...failures.map((failure) => failure.retryAfterMs ?? 0));
      throw new RetryableJobError('Provider asked for a retry', wait || undefined);
    }
    const providerId = targets.list[0].integration.providerId;
    if (delivered > 0) return { kind: 'completed', providerId };
    return { kind: 'failed', reason: failures[0]?.message ?? DETAIL.PROVIDER_ERROR };
  }

  private render(context: StepContext): RenderedStep {
    const variables = stepVariables(context);
    const render = (source: string | undefined) => (source ? this.renderer.render(source, variables) : undefined);
    const template = context.step.template;
    const content = Array.isArray(template.content)
      ? template.content.map((block) => render(block.content) ?? '').join('\n')
      : (render(template.content) ?? '');
    const cta = template.cta ? { ...template.cta, data: template.cta.data?.url ? { url: render(template.cta.data.url) } : template.cta.data } : undefined;
    return { content, subject: render(template.subject), title: render(template.title), cta: cta as MessageCta | undefined };
  }

  /**
   * Chat and push go to every credential entry the subscriber holds for an integration that
   * selection allows (override identifier, tenant conditions, else the unconditional ones).
   */
  private credentialTargets(context: StepContext, channel: 'chat' | 'push', active: Integration[]): { list: Target[] } | { outcome: () => Promise<StepOutcome> } {
    const { job, subscriber } = context;
    const requested = requestedIntegrationIdentifier(job.overrides, channel);
    if (!active.length || (requested && !active.some((integration) => integration.identifier === requested))) {
      return { outcome: () => this.noIntegration(context) };
    }
    const held = new Set(subscriber.channels.map((entry) => entry.integrationId));
    const eligible = selectCredentialIntegrations(active, channel, job.overrides, job.tenant, (integration) => held.has(integration.id));
    const list: Target[] = [];
    for (const entry of subscriber.channels) {
      const integration = eligible.find((candidate) => candidate.id === entry.integrationId);
      if (!integration) continue;
      if (channel === 'chat' && entry.credentials.webhookUrl) list.push({ integration, address: entry.credentials.webhookUrl, channelEntry: entry });
      if (channel === 'push') for (const token of entry.credentials.deviceTokens ?? []) list.push({ integration, address: token, channelEntry: entry });
    }
    if (list.length) return { list };
    const detail = channel === 'push' && eligible.length > 0 ? DETAIL.PUSH_MISSING_DEVICE_TOKENS : DETAIL.SUBSCRIBER_NO_CHANNEL;
    return {
      outcome: async () => {
        await this.record(context, 'Warning', detail, undefined, 'Credentials');
        return { kind: 'skipped' };
      },
    };
  }

  /** Email and SMS: one integration, the subscriber's address (or an override's). */
  private addressTarget(context: StepContext, channel: 'email' | 'sms', active: Integration[]): { list: Target[] } | { outcome: () => Promise<StepOutcome> } {
    const { job, subscriber } = context;
    const integration = selectIntegration(active, channel, job.overrides, job.tenant);
    if (!integration) return { outcome: () => this.noIntegration(context) };
    const emailOverride = (job.overrides.email as Record<string, unknown> | undefined)?.toRecipient;
    const address = channel === 'email'
      ? (typeof emailOverride === 'string' ? emailOverride : subscriber.email)
      : (typeof job.payload.phone === 'string' ? job.payload.phone : subscriber.phone);
    if (address) return { list: [{ integration, address }] };
    return {
      outcome: async () => {
        const missing = channel === 'email' ? DETAIL.SUBSCRIBER_NO_EMAIL : DETAIL.SUBSCRIBER_NO_PHONE;
        await context.writes.insertMessage(
          this.message(context, job.id, integration, { content: '' }, 'warning', {}, channel === 'email' ? 'Subscriber does not have an email address' : 'Subscriber does not have active phone', channel === 'email' ? MESSAGE_ERROR_IDS.missingEmail : MESSAGE_ERROR_IDS.missingPhone),
        );
        await this.record(context, 'Failed', missing, undefined, 'Credentials', integration.providerId);
        return { kind: 'skipped', providerId: integration.providerId };
      },
    };
  }

  private async noIntegration(context: StepContext): Promise<StepOutcome> {
    await this.record(context, 'Failed', DETAIL.SUBSCRIBER_NO_ACTIVE_INTEGRATION, undefined, 'Credentials');
    return { kind: 'failed', reason: DETAIL.SUBSCRIBER_NO_ACTIVE_INTEGRATION };
  }

  private send(provider: ChannelProvider, context: StepContext, target: Target, rendered: RenderedStep, messageId: string) {
    const { job, subscriber, step } = context;
    const overrides = {
      ...((job.overrides[job.type] as Record<string, unknown>) ?? {}),
      ...((job.overrides[provider.id] as Record<string, unknown>) ?? {}),
      ...(((job.overrides.providers as Record<string, unknown>)?.[provider.id] as Record<string, unknown>) ?? {}),
    };
    const sendContext = { idempotencyKey: messageId, signal: AbortSignal.timeout(SEND_TIMEOUT_MS), overrides };
    const config = { ...target.integration.credentials } as Record<string, unknown>;
    switch (job.type) {
      case 'chat':
        return provider.send({ id: messageId, content: rendered.content, webhookUrl: target.address, channel: target.channelEntry?.credentials.channel } as never, config, sendContext);
      case 'push':
        return provider.send(
          {
            id: messageId,
            target: target.address,
            title: rendered.title ?? '',
            content: rendered.content,
            payload: job.payload,
            overrides,
            subscriber: subscriberVariables(subscriber),
            step: { id: step.id, name: step.name },
          } as never,
          config,
          sendContext,
        );
      case 'email':
        return provider.send({ id: messageId, to: [target.address], subject: rendered.subject ?? '', html: rendered.content } as never, config, sendContext);
      default:
        return provider.send({ id: messageId, to: target.address, content: rendered.content } as never, config, sendContext);
    }
  }

  private addressFields(channel: Channel, target: Target): Partial<Message> {
    if (channel === 'email') return { email: target.address };
    if (channel === 'sms') return { phone: target.address };
    if (channel === 'push') return { deviceTokens: [target.address] };
    return { directWebhookUrl: target.address };
  }

  private message(
    context: StepContext,
    id: string,
    integration: Integration,
    rendered: RenderedStep,
    status: Message['status'],
    fields: Partial<Message>,
    errorText?: string,
    errorId?: string,
  ): Message {
    const { job, workflow, step, actor } = context;
    const now = this.clock.now();
    return {
      id,
      organizationId: job.organizationId,
      environmentId: job.environmentId,
      notificationId: job.notificationId,
      jobId: job.id,
      subscriberId: job.subscriberId,
      workflowId: workflow.id,
      templateIdentifier: workflow.trigger.identifier,
      stepId: step.id,
      transactionId: job.transactionId,
      channel: job.type as Channel,
      providerId: integration.providerId,
      status,
      errorText,
      errorId,
      content: rendered.content,
      subject: rendered.subject,
      title: rendered.title,
      cta: rendered.cta,
      avatar: actor?.avatar,
      actorSubscriberId: actor?.id,
      read: false,
      seen: false,
      archived: false,
      deliveredAt: status === 'sent' ? [now] : [],
      payload: job.payload,
      overrides: job.overrides,
      tags: workflow.tags,
      createdAt: now,
      updatedAt: now,
      ...fields,
    };
  }

  private record(context: StepContext, status: ExecutionDetailStatus, detail: string, raw?: unknown, source: 'Internal' | 'Credentials' | 'Payload' = 'Internal', providerId?: string) {
    return context.writes.appendDetail(createExecutionDetail({ job: context.job, status, detail, raw, source, providerId }, this.clock.now()));
  }
}
