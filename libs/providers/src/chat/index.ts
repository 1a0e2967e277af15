import { ProviderAdapter, ProviderRuntime } from '../provider-runtime';
import { ChatWebhookProvider } from './chat-webhook/chat-webhook.provider';
import { DiscordProvider } from './discord/discord.provider';
import { GetstreamProvider } from './getstream/getstream.provider';
import { GrafanaOnCallProvider } from './grafana-on-call/grafana-on-call.provider';
import { MattermostProvider } from './mattermost/mattermost.provider';
import { MsTeamsProvider } from './msteams/msteams.provider';
import { RocketChatProvider } from './rocket-chat/rocket-chat.provider';
import { RyverProvider } from './ryver/ryver.provider';
import { SlackProvider } from './slack/slack.provider';
import { WhatsappBusinessProvider } from './whatsapp-business/whatsapp-business.provider';
import { ZulipProvider } from './zulip/zulip.provider';

/** Every chat provider, by the ids of the interface. */
export function chatProviders(runtime: ProviderRuntime): ProviderAdapter<'chat'>[] {
  return [
    new SlackProvider(runtime, 'slack'),
    new SlackProvider(runtime, 'service-slack'),
    new SlackProvider(runtime, 'novu-slack'),
    new DiscordProvider(runtime),
    new MsTeamsProvider(runtime),
    new MattermostProvider(runtime),
    new RyverProvider(runtime),
    new ZulipProvider(runtime),
    new GrafanaOnCallProvider(runtime),
    new GetstreamProvider(runtime),
    new RocketChatProvider(runtime),
    new WhatsappBusinessProvider(runtime),
    new ChatWebhookProvider(runtime),
  ];
}
