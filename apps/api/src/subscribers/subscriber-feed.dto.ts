import { ApiProperty, ApiPropertyOptional, OmitType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { PageQueryDto } from '../http/page-query.dto';
import { MarkMessagesAsRequestDto, MessagesResponseDto } from '../shared-dto/message.dto';

const FLAG = ['true', 'false'] as const;
// Deprecated in the document: no value succeeds, and Swagger UI leaves deprecated fields out of its example.
const feedIdentifierDoc = {
  description: "Novu's v0 feeds, which this service does not serve: any value is answered 404 not_supported",
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  deprecated: true,
};

export class SubscriberFeedQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only read (true) or unread (false) messages', enum: FLAG })
  @IsOptional()
  @IsIn(FLAG)
  read?: (typeof FLAG)[number];

  @ApiPropertyOptional({ description: 'Only seen (true) or unseen (false) messages', enum: FLAG })
  @IsOptional()
  @IsIn(FLAG)
  seen?: (typeof FLAG)[number];

  @ApiPropertyOptional({
    description: 'Base64 of a JSON object: only messages whose trigger payload contains it (nested objects too)',
    example: 'eyJmb28iOjEyM30=',
  })
  @IsOptional()
  @IsString()
  payload?: string;

  @ApiPropertyOptional(feedIdentifierDoc)
  @IsOptional()
  feedIdentifier?: string | string[];
}

/** The page shape of GET /v1/messages, with Novu's feed meaning of totalCount. */
export class SubscriberFeedResponseDto extends OmitType(MessagesResponseDto, ['totalCount'] as const) {
  @ApiProperty({ description: 'Messages on this page (as Novu counts it: at most the page size)' })
  totalCount: number;
}

export class UnseenCountQueryDto {
  @ApiPropertyOptional({ description: 'Count seen (true) or unseen (false, the default) messages', enum: FLAG, default: 'false' })
  @IsOptional()
  @IsIn(FLAG)
  seen?: (typeof FLAG)[number];

  @ApiPropertyOptional({ description: 'The count stops at this number', minimum: 1, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit: number = 100;

  @ApiPropertyOptional(feedIdentifierDoc)
  @IsOptional()
  feedIdentifier?: string | string[];
}

export class UnseenCountResponseDto {
  @ApiProperty({ description: 'How many in-app messages match, at most `limit`', example: 3 })
  count: number;
}

export class MessageMarkDto {
  @ApiPropertyOptional({ description: 'Mark seen (true) or unseen (false)' })
  @IsOptional()
  @IsBoolean()
  seen?: boolean;

  @ApiPropertyOptional({ description: 'Mark read (true, which also marks seen) or unread (false)' })
  @IsOptional()
  @IsBoolean()
  read?: boolean;
}

/** Novu's older mark route (`markAs`), which @novu/node's markMessageSeen/Read/As call. */
export class MarkMessageLegacyRequestDto extends PickType(MarkMessagesAsRequestDto, ['messageId'] as const) {
  @ApiProperty({ description: 'The marks to set; read is applied first, then seen', type: MessageMarkDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => MessageMarkDto)
  mark: MessageMarkDto;
}

export class MarkAllMessagesRequestDto {
  @ApiProperty({ description: "What to mark every one of the subscriber's in-app messages", enum: ['read', 'unread', 'seen', 'unseen'] })
  @IsIn(['read', 'unread', 'seen', 'unseen'])
  markAs: 'read' | 'unread' | 'seen' | 'unseen';

  @ApiPropertyOptional(feedIdentifierDoc)
  @IsOptional()
  feedIdentifier?: string | string[];
}

export const BUTTON_TYPES = ['primary', 'secondary'] as const;

export class MessageActionParamsDto {
  @ApiProperty({ description: 'Which button', enum: BUTTON_TYPES })
  @IsIn(BUTTON_TYPES)
  type: (typeof BUTTON_TYPES)[number];
}

export class MessageActionRequestDto {
  @ApiProperty({ description: 'done: the button was used (its result recorded); pending: undone', enum: ['pending', 'done'] })
  @IsIn(['pending', 'done'])
  status: 'pending' | 'done';

  @ApiPropertyOptional({
    description: "Stored as the action's result payload (done only)",
    type: 'object',
    additionalProperties: true,
    example: { choice: 'accepted' },
  })
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;
}
