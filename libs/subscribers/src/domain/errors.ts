import { ConflictError, InvalidRequestError, NotFoundError, UnprocessableError } from '@app/kernel';

export class SubscriberNotFoundError extends NotFoundError {
  constructor(subscriberId: string, message = `Subscriber: ${subscriberId} was not found`) {
    super('subscriber_not_found', message);
  }
}

/** Novu answers 400 (not 404) when a credentials call names an unknown subscriber. */
export class CredentialsSubscriberNotFoundError extends InvalidRequestError {
  constructor(subscriberId: string) {
    super('credentials_subscriber_not_found', `SubscriberId: ${subscriberId} not found`);
  }
}

export class SubscriberAlreadyExistsError extends ConflictError {
  constructor(subscriberId: string) {
    super('subscriber_already_exists', `Subscriber with subscriberId: ${subscriberId} already exists`);
  }
}

export class NoActiveChannelIntegrationError extends InvalidRequestError {
  constructor(environmentId: string, providerId: string) {
    super('no_active_integration', `Subscribers environment (${environmentId}) do not have active ${providerId} integration.`);
  }
}

export class DeviceTokensLimitExceededError extends InvalidRequestError {
  constructor(currentCount: number, limit: number) {
    super(
      'device_tokens_limit_exceeded',
      `Device tokens limit exceeded. A channel may hold at most ${limit} device tokens, this update would leave ${currentCount}.`,
      { currentCount, limit },
    );
  }
}

/** Channel updates retry on lost compare-and-set races; this only surfaces under extreme contention. */
export class SubscriberChannelsContendedError extends ConflictError {
  constructor(subscriberId: string) {
    super('subscriber_channels_contended', `Credentials of subscriber ${subscriberId} are being changed concurrently, retry the request`);
  }
}

export class BothCursorsGivenError extends InvalidRequestError {
  constructor() {
    super('both_cursors_given', 'Cannot specify both "before" and "after" cursors at the same time.');
  }
}

export class TopicNotFoundError extends NotFoundError {
  constructor(topicKey: string) {
    super('topic_not_found', `Topic with key: ${topicKey} was not found`);
  }
}

export class TopicAlreadyExistsError extends ConflictError {
  constructor(topicKey: string) {
    super('topic_already_exists', `Topic with key: ${topicKey} already exists`);
  }
}

export class InvalidTopicKeyError extends UnprocessableError {
  constructor(topicKey: string) {
    super('invalid_topic_key', `Topic key "${topicKey}" may only contain letters, digits, underscores, colons, periods and hyphens`);
  }
}

export class TopicSubscriptionNotFoundError extends NotFoundError {
  constructor(identifier: string, topicKey: string) {
    super('subscription_not_found', `Subscription with identifier ${identifier} not found for topic ${topicKey}`);
  }
}

/** Novu's v1 topics list serves at most 10 topics a page (each carries its member list). */
export class TopicPageSizeTooLargeError extends InvalidRequestError {
  constructor(max: number) {
    super('topic_page_size_too_large', `Page size can not be larger then ${max}`);
  }
}

export class TopicHasSubscribersError extends ConflictError {
  constructor(topicKey: string) {
    super('topic_has_subscribers', `Topic with key ${topicKey} can't be deleted as it still has subscribers assigned`);
  }
}

/** v1: a subscriber asked for is not a member of the topic. */
export class TopicMemberNotFoundError extends NotFoundError {
  constructor(topicKey: string, subscriberId: string) {
    super('topic_subscription_not_found', `Subscriber ${subscriberId} not found for topic ${topicKey}`);
  }
}
