import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import { BulkInboxRequestDto, MarkSeenRequestDto } from '../inbox/inbox.dto';

export const CONTEXT_KEYS_DESCRIPTION =
  "Novu's context keys. A trigger takes no context here, so no notification has one: leave it out or send it empty (any key is answered 404 not_supported)";

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
