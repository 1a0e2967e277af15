import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import { BulkInboxRequestDto, MarkSeenRequestDto } from '../shared-dto/inbox.dto';

export const CONTEXT_KEYS_DESCRIPTION =
  "Novu's context keys (`type:id`): only the notifications sent within exactly these contexts, in any order. Left out or empty, no context filter. " +
  'A route naming one notification checks the keys and does not match them';

class ContextKeysBodyDto {
  @ApiPropertyOptional({ description: CONTEXT_KEYS_DESCRIPTION, type: [String], example: [] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  contextKeys?: string[];
}

export class UpdateAllSubscriberNotificationsRequestDto extends IntersectionType(BulkInboxRequestDto, ContextKeysBodyDto) {}

export class MarkSubscriberNotificationsAsSeenRequestDto extends IntersectionType(MarkSeenRequestDto, ContextKeysBodyDto) {}

export class NotificationActionParamsDto {
  @ApiProperty({ description: 'Which button', enum: ['primary', 'secondary'] })
  @IsIn(['primary', 'secondary'])
  actionType: 'primary' | 'secondary';
}

export class ContextKeysQueryDto {
  @ApiPropertyOptional({ description: CONTEXT_KEYS_DESCRIPTION, type: [String] })
  @IsOptional()
  contextKeys?: string | string[];
}
