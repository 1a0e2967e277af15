import { SubscriberChannel, SubscriberDetails } from '@app/subscribers';
import { definedOnly } from './defined-only';
import { ChannelSettingsDto, SubscriberResponseDto } from './subscriber.dto';

function toChannelSettings(channel: SubscriberChannel): ChannelSettingsDto {
  return {
    providerId: channel.providerId,
    ...(channel.integrationIdentifier !== undefined ? { integrationIdentifier: channel.integrationIdentifier } : {}),
    credentials: channel.credentials,
    _integrationId: channel.integrationId,
  };
}

/** Domain → Novu's SubscriberResponseDto: a field never set is left out, one the caller set to null is null (as Novu). */
export function toSubscriberResponse({ subscriber: s, topics }: SubscriberDetails): SubscriberResponseDto {
  const optional = {
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
    phone: s.phone,
    avatar: s.avatar,
    locale: s.locale,
    timezone: s.timezone,
    data: s.data,
  };
  return {
    _id: s.id,
    subscriberId: s.subscriberId,
    ...Object.fromEntries((s.cleared ?? []).map((field) => [field, null])),
    ...definedOnly(optional),
    channels: s.channels.map(toChannelSettings),
    topics,
    ...(s.isOnline !== undefined ? { isOnline: s.isOnline } : {}),
    ...(s.lastOnlineAt !== undefined ? { lastOnlineAt: s.lastOnlineAt.toISOString() } : {}),
    deleted: false,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    _environmentId: s.environmentId,
    _organizationId: s.organizationId,
    __v: 0,
  };
}
