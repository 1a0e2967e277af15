import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_REPOSITORY, Integration, IntegrationRepository } from '@app/integrations';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { CredentialsSubscriberNotFoundError, NoActiveChannelIntegrationError, SubscriberChannelsContendedError } from '../../domain/errors';
import { ChannelCredentials, Subscriber } from '../../domain/subscriber';
import { CredentialsUpdateMode, applyChannelCredentials, credentialProviderCandidates, sameChannels } from '../../domain/subscriber-channels';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { SubscriberDetails, oneWithTopics } from '../subscriber-details';

export interface UpdateSubscriberCredentialsCommand {
  scope: EnvironmentScope;
  subscriberId: string;
  providerId: string;
  integrationIdentifier?: string;
  credentials: ChannelCredentials;
  /** PUT replaces the device tokens, PATCH appends to them. */
  mode: CredentialsUpdateMode;
}

/** Each lost compare-and-set means another writer succeeded, so a few attempts always suffice in practice. */
const MAX_ATTEMPTS = 10;

/** PUT/PATCH /v1/subscribers/{id}/credentials (Novu §7, without its token-reset bug). */
@Injectable()
export class UpdateSubscriberCredentials {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(INTEGRATION_REPOSITORY) private readonly integrations: IntegrationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: UpdateSubscriberCredentialsCommand): Promise<SubscriberDetails> {
    const { scope, subscriberId, providerId } = command;
    let subscriber = await this.load(scope, subscriberId);
    const integration = await this.findIntegration(scope, providerId, command.integrationIdentifier);
    if (!integration) throw new NoActiveChannelIntegrationError(scope.environmentId, providerId);
    // The entry is named after the integration's provider, so delivery finds it whichever alias was sent.
    const update = {
      providerId: integration.providerId,
      integrationId: integration.id,
      integrationIdentifier: integration.identifier,
      credentials: command.credentials,
    };

    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const next = applyChannelCredentials(subscriber.channels, update, command.mode);
      if (sameChannels(next, subscriber.channels)) return oneWithTopics(this.topics, scope, subscriber);
      const saved = await this.subscribers.replaceChannels(scope, subscriberId, subscriber.channels, next, this.clock.now());
      if (saved) return oneWithTopics(this.topics, scope, saved);
      subscriber = await this.load(scope, subscriberId);
    }
    throw new SubscriberChannelsContendedError(subscriberId);
  }

  private async findIntegration(scope: EnvironmentScope, providerId: string, identifier?: string): Promise<Integration | undefined> {
    for (const candidate of credentialProviderCandidates(providerId)) {
      const [newest] = await this.integrations.findActive(scope, { providerId: candidate, ...(identifier !== undefined ? { identifier } : {}) });
      if (newest) return newest;
    }
    return undefined;
  }

  private async load(scope: EnvironmentScope, subscriberId: string): Promise<Subscriber> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new CredentialsSubscriberNotFoundError(subscriberId);
    return subscriber;
  }
}
