export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

export type ChannelFlags = Record<Channel, boolean>;

export function allChannels(enabled: boolean): ChannelFlags {
  return { in_app: enabled, email: enabled, sms: enabled, chat: enabled, push: enabled };
}
