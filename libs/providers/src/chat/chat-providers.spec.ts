import { findProvider, PROVIDERS } from '@app/integrations';
import { CredentialSchema, requiredKeys } from '../http/credential-schema';
import { createProviderRuntime } from '../provider-runtime';
import { CHAT_WEBHOOK_CREDENTIALS } from './chat-webhook/chat-webhook.provider';
import { DISCORD_CREDENTIALS } from './discord/discord.provider';
import { GETSTREAM_CREDENTIALS } from './getstream/getstream.provider';
import { GRAFANA_ON_CALL_CREDENTIALS } from './grafana-on-call/grafana-on-call.provider';
import { chatProviders } from './index';
import { MATTERMOST_CREDENTIALS } from './mattermost/mattermost.provider';
import { MSTEAMS_CREDENTIALS } from './msteams/msteams.provider';
import { ROCKET_CHAT_CREDENTIALS } from './rocket-chat/rocket-chat.provider';
import { RYVER_CREDENTIALS } from './ryver/ryver.provider';
import { SLACK_CREDENTIALS } from './slack/slack.provider';
import { WHATSAPP_BUSINESS_CREDENTIALS } from './whatsapp-business/whatsapp-business.provider';
import { ZULIP_CREDENTIALS } from './zulip/zulip.provider';

const SCHEMAS: Record<string, CredentialSchema> = {
  slack: SLACK_CREDENTIALS,
  'service-slack': SLACK_CREDENTIALS,
  'novu-slack': SLACK_CREDENTIALS,
  discord: DISCORD_CREDENTIALS,
  msteams: MSTEAMS_CREDENTIALS,
  mattermost: MATTERMOST_CREDENTIALS,
  ryver: RYVER_CREDENTIALS,
  zulip: ZULIP_CREDENTIALS,
  'grafana-on-call': GRAFANA_ON_CALL_CREDENTIALS,
  getstream: GETSTREAM_CREDENTIALS,
  'rocket-chat': ROCKET_CHAT_CREDENTIALS,
  'whatsapp-business': WHATSAPP_BUSINESS_CREDENTIALS,
  'chat-webhook': CHAT_WEBHOOK_CREDENTIALS,
};

describe('chat providers', () => {
  const providers = chatProviders(createProviderRuntime({ allowPrivateNetworkTargets: false }));

  it('registers every chat provider of the catalogue', () => {
    const catalogue = PROVIDERS.filter((p) => p.channel === 'chat').map((p) => p.id);
    const registered = providers.map((p) => p.id);
    expect(registered.sort()).toEqual(catalogue.sort());
    expect(registered.sort()).toEqual(Object.keys(SCHEMAS).sort());
    expect(providers.every((p) => p.channel === 'chat')).toBe(true);
  });

  it.each(Object.entries(SCHEMAS))('%s requires exactly what the catalogue requires', (id, schema) => {
    expect(requiredKeys(schema).sort()).toEqual([...findProvider(id)!.requiredCredentials].sort());
  });
});
