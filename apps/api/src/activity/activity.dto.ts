import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SUPPRESSION_REASONS } from '@app/delivery';
import { PageQueryDto } from '../http/page-query.dto';

export class InboundWebhookResultDto {
  @ApiProperty({ description: 'Vendor events applied by this request (an execution detail each, the message state moved)', example: 1 })
  recorded: number;
  @ApiProperty({ description: 'Events received before (a vendor retry): recorded once, nothing changed now', example: 0 })
  duplicates: number;
  @ApiProperty({ description: 'Events about messages this environment does not know: acknowledged, nothing recorded', example: 0 })
  unknown: number;
  @ApiPropertyOptional({ description: 'The request was an Amazon SNS SubscriptionConfirmation, verified with the configured certificate', example: true })
  subscriptionConfirmation?: boolean;
  @ApiPropertyOptional({
    description:
      'With subscriptionConfirmation: whether GETting its SubscribeURL (under the outbound network rules) was answered 2xx; when not, the URL is logged for the operator',
    example: true,
  })
  subscriptionConfirmed?: boolean;
}

export class ListSuppressionsQueryDto extends PageQueryDto {}

export class SuppressionResponseDto {
  @ApiProperty({ description: 'The suppressed address: an email (lower case) or a phone number', example: 'bounced@example.com' })
  address: string;
  @ApiProperty({ description: 'Channel of the message whose event suppressed it', enum: ['email', 'sms'] })
  channel: string;
  @ApiProperty({ description: 'Why: a hard (permanent) bounce, or a spam report', enum: SUPPRESSION_REASONS })
  reason: string;
  @ApiProperty({ description: 'The provider that reported it', example: 'sendgrid' })
  providerId: string;
  @ApiProperty({ description: 'The message (_id) whose event suppressed the address' })
  messageId: string;
  @ApiPropertyOptional({ description: "The provider's words (bounce reason), when it gave any" })
  detail?: string;
  @ApiProperty({ description: 'When the address was suppressed (ISO-8601)' })
  createdAt: string;
}

export class SuppressionListResponseDto {
  @ApiProperty({ description: 'Suppressed addresses of this page, newest first', type: [SuppressionResponseDto] })
  data: SuppressionResponseDto[];
  @ApiProperty({ description: 'Page number, from 0' })
  page: number;
  @ApiProperty({ description: 'Items per page' })
  pageSize: number;
  @ApiProperty({ description: 'Suppressed addresses in the environment' })
  totalCount: number;
  @ApiProperty({ description: 'Whether a later page has more' })
  hasMore: boolean;
}
