import { Inject, Injectable } from '@nestjs/common';
import { Integration } from '@app/integrations';
import { EnvironmentScope } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { DETAIL } from '../../../domain/execution-detail';
import { failoverChain, requestedIntegrationIdentifier, selectCredentialIntegrations } from '../../../domain/select-integration';
import { StepContext, stepVariables, subscriberVariables } from '../step-context';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport, stringOf } from './channel-support';
import { DeliveryTarget, ProviderDelivery } from './provider-delivery';

const MAX_CREDENTIAL_RACE_ROUNDS = 5;

/**
 * Push: one provider call per device token the subscriber holds for a selected integration (as
 * Novu). A token the vendor reports dead is removed from the subscriber's credentials.
 */
@Injectable()
export class PushSender {
  constructor(
    private readonly support: ChannelSupport,
    private readonly delivery: ProviderDelivery,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
  ) {}

  async execute(context: StepContext): Promise<StepOutcome> {
    const { job, step } = context;
    const title = this.support.render(context, step.template.title) ?? '';
    const content = this.support.render(context, stringOf(step.template.content)) ?? '';
    const active = await this.support.activeIntegrations(context, 'push');
    const requested = requestedIntegrationIdentifier(job.overrides, 'push');
    if (!active.length || (requested && !active.some((integration) => integration.identifier === requested))) return this.support.noIntegration(context);

    const holds = (integration: Integration) => context.subscriber.channels.some((entry) => entry.integrationId === integration.id);
    const eligible = selectCredentialIntegrations(active, 'push', job.overrides, this.support.selection(context), holds);
    const targets = (integration: Integration) => this.targets(context, integration, title, content);
    const selected = eligible.filter((integration) => targets(integration).length > 0);
    if (!selected.length) return this.support.noChannel(context, eligible.length ? DETAIL.PUSH_MISSING_DEVICE_TOKENS : DETAIL.SUBSCRIBER_NO_CHANNEL);
    return this.delivery.deliver(
      context,
      'push',
      selected.map((integration) => ({ chain: failoverChain(integration, active), targets })),
      { content, title },
    );
  }

  private targets(context: StepContext, integration: Integration, title: string, content: string): DeliveryTarget<'push'>[] {
    const tokens = context.subscriber.channels
      .filter((entry) => entry.integrationId === integration.id)
      .flatMap((entry) => entry.credentials.deviceTokens ?? []);
    return [...new Set(tokens)].map((token) => ({
      address: token,
      fields: { deviceTokens: [token] },
      build: (id: string) => ({
        id,
        target: token,
        title,
        content,
        payload: context.job.payload,
        subscriber: subscriberVariables(context.subscriber),
        step: stepVariables(context).step ?? {},
      }),
      forget: () => this.forgetToken(context.scope, context.subscriber.subscriberId, integration.id, token),
    }));
  }

  /** Removes a dead token from the subscriber's entries of the integration (compare-and-set, retried on a race). */
  private async forgetToken(scope: EnvironmentScope, subscriberId: string, integrationId: string, token: string): Promise<Record<string, unknown> | undefined> {
    for (let round = 0; round < MAX_CREDENTIAL_RACE_ROUNDS; round++) {
      const current = await this.subscribers.findBySubscriberId(scope, subscriberId);
      if (!current) return undefined;
      let changed = false;
      const next = current.channels.map((entry) => {
        if (entry.integrationId !== integrationId || !entry.credentials.deviceTokens?.includes(token)) return entry;
        changed = true;
        return { ...entry, credentials: { ...entry.credentials, deviceTokens: entry.credentials.deviceTokens.filter((held) => held !== token) } };
      });
      if (!changed) return undefined;
      if (await this.subscribers.replaceChannels(scope, subscriberId, current.channels, next, this.support.recorder.now())) {
        return { token: `${token.slice(0, 8)}…`, integrationId };
      }
    }
    return undefined;
  }
}
