import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';

/** Chat and push provider ids a subscriber may hold credentials for (interface.md, plus Novu's `novu-slack`). */
export const CREDENTIAL_PROVIDER_IDS = [
  'slack',
  'discord',
  'msteams',
  'mattermost',
  'ryver',
  'zulip',
  'grafana-on-call',
  'getstream',
  'rocket-chat',
  'whatsapp-business',
  'chat-webhook',
  'service-slack',
  'novu-slack',
  'fcm',
  'apns',
  'expo',
  'one-signal',
  'pushpad',
  'push-webhook',
  'pusher-beams',
] as const;

export class ChannelCredentialsRequestDto {
  @ApiPropertyOptional({ description: 'Webhook URL of a chat integration', example: 'https://hooks.slack.com/services/T000/B000/XXXX' })
  @IsOptional()
  @IsString()
  webhookUrl?: string;

  @ApiPropertyOptional({ description: 'Channel name (Mattermost, Slack)', example: 'general' })
  @IsOptional()
  @IsString()
  channel?: string;

  @ApiPropertyOptional({
    description: 'Push device tokens. Left out: stored tokens stay; [] clears them; at most 100 per channel entry',
    type: [String],
    example: ['dGVzdC1kZXZpY2UtdG9rZW4'],
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  deviceTokens?: string[];

  @ApiPropertyOptional({ description: 'Alert UID for Grafana On-Call', example: 'a1b2c3' })
  @IsOptional()
  @IsString()
  alertUid?: string;

  @ApiPropertyOptional({ description: 'Title for Grafana On-Call', example: 'Order service' })
  @IsOptional()
  @IsString()
  title?: string;

  @ApiPropertyOptional({ description: 'Image URL for Grafana On-Call', example: 'https://example.com/alert.png' })
  @IsOptional()
  @IsString()
  imageUrl?: string;

  @ApiPropertyOptional({ description: 'State for Grafana On-Call', example: 'alerting' })
  @IsOptional()
  @IsString()
  state?: string;

  @ApiPropertyOptional({ description: 'Link to upstream details for Grafana On-Call', example: 'https://example.com/incidents/42' })
  @IsOptional()
  @IsString()
  externalUrl?: string;
}

export class UpdateSubscriberChannelRequestDto {
  @ApiProperty({ description: 'The chat or push provider the credentials are for', enum: CREDENTIAL_PROVIDER_IDS, example: 'slack' })
  @IsIn(CREDENTIAL_PROVIDER_IDS)
  providerId: string;

  @ApiPropertyOptional({ description: 'Identifier of the integration to attach to; default: the newest active one of that provider', example: 'slack-main' })
  @IsOptional()
  @IsString()
  integrationIdentifier?: string;

  // One provider's fields: a sample of every field would mix chat and push.
  @ApiProperty({
    description: 'Credentials payload for the provider',
    type: ChannelCredentialsRequestDto,
    example: { webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX' },
  })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ChannelCredentialsRequestDto)
  credentials: ChannelCredentialsRequestDto;
}
