import { Message } from '../domain/message';

/**
 * Told of in-app messages once they are stored (the Inbox pushes them to the subscriber's open
 * sockets). Delivery knows nothing of sockets; a failure here never fails the delivery.
 */
export interface InAppDeliveryListener {
  delivered(messages: Message[]): Promise<void>;
}
export const IN_APP_DELIVERY_LISTENER = Symbol('InAppDeliveryListener');
