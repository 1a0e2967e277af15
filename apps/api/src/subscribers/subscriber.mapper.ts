import { SubscriberChanges } from '@app/subscribers';
import { SubscriberProfileDto } from './subscriber.dto';

/** Only the keys present in the body become changes (undefined stays, null clears). */
export function toSubscriberChanges(body: SubscriberProfileDto): SubscriberChanges {
  return {
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    phone: body.phone,
    avatar: body.avatar,
    locale: body.locale,
    timezone: body.timezone,
    data: body.data,
  };
}
