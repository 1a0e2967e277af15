import { EnvironmentScope, OutboundEvent } from '@app/kernel';
import { SubscriberRepository } from '@app/subscribers';
import { Message, messageEventObject } from '../domain/message';

/** One message.* event about a stored message: its object is the message as the API shows it. */
export type MessageEvent = Omit<OutboundEvent, 'object'> & { message: Message };

/**
 * message.* events about messages that name their subscriber by internal id only (a vendor's event,
 * a deletion, a woken snooze). The objects are built only when an endpoint takes an event; the
 * subscribers' own ids they carry are then read once for all of them.
 */
export function messageEvents(subscribers: SubscriberRepository, scope: EnvironmentScope, events: MessageEvent[]): OutboundEvent[] {
  let externalIds: Promise<Map<string, string>> | undefined;
  const externalIdOf = async (subscriberId: string) => {
    externalIds ??= subscribers
      .findManyByIds(scope, [...new Set(events.map((event) => event.message.subscriberId))])
      .then((found) => new Map(found.map((subscriber) => [subscriber.id, subscriber.subscriberId])));
    return (await externalIds).get(subscriberId);
  };
  return events.map(({ message, ...event }) => ({ ...event, object: async () => messageEventObject(message, await externalIdOf(message.subscriberId)) }));
}
