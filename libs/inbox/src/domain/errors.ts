import { DomainError, InvalidRequestError, NotFoundError } from '@app/kernel';

/** Novu answers an unknown applicationIdentifier with 400 and this text. */
export class InvalidApplicationIdentifierError extends InvalidRequestError {
  constructor() {
    super('invalid_application_identifier', 'Please provide a valid app identifier');
  }
}

/** The environment requires a subscriberHash and none, or a wrong one, came (Novu: 400). */
export class InvalidSubscriberHashError extends InvalidRequestError {
  constructor() {
    super('invalid_subscriber_hash', 'Please provide a valid HMAC hash');
  }
}

export class SubscriberIdRequiredError extends InvalidRequestError {
  constructor() {
    super('subscriber_id_required', 'subscriberId or subscriber.subscriberId is required');
  }
}

/** A missing, forged, expired or foreign subscriber token. */
export class InvalidSubscriberTokenError extends DomainError {
  constructor(reason = 'Invalid or expired subscriber token') {
    super('invalid_subscriber_token', reason, 'unauthorized');
  }
}

export class InboxNotificationNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('inbox_notification_not_found', `Notification with id ${id} is not found`, { notificationId: id });
  }
}

/** Novu requires a snooze to end in the future and within the allowed duration. */
export class InvalidSnoozeError extends InvalidRequestError {
  constructor(message: string) {
    super('invalid_snooze', message);
  }
}

export class NoActionOfTypeError extends InvalidRequestError {
  constructor(actionType: string) {
    super('inbox_action_missing', `The notification has no ${actionType} action`);
  }
}

/** Novu answers the feed reads and button actions of an unknown subscriber with 400 (its marks: 404). */
export class FeedSubscriberNotFoundError extends InvalidRequestError {
  constructor(subscriberId: string) {
    super('subscriber_not_found', `Subscriber not found for this environment with the id: ${subscriberId}. Make sure to create a subscriber first.`);
  }
}
