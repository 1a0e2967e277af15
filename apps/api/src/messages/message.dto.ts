import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CHANNELS, Channel } from '@app/kernel';
import { MAX_PAGE } from '../http/page-query.dto';
import { toArray } from '../http/query-array';
import { MarkMessagesAsRequestDto } from '../shared-dto/message.dto';

export class ListMessagesQueryDto {
  @ApiPropertyOptional({ description: 'Only messages of this channel', enum: CHANNELS })
  @IsOptional()
  @IsIn(CHANNELS)
  channel?: Channel;

  @ApiPropertyOptional({ description: "Only messages of this subscriber (the caller's subscriberId); unknown → 404", example: 'user-123' })
  @IsOptional()
  @IsString()
  subscriberId?: string;

  @ApiPropertyOptional({
    description: 'Only messages of these transactions; repeat the parameter for several',
    type: [String],
  })
  @IsOptional()
  @Transform(toArray)
  @IsString({ each: true })
  transactionId?: string[];

  @ApiPropertyOptional({
    name: 'transactionId[]',
    description: 'The same as transactionId, as axios (and so `@novu/node`) writes an array: `transactionId[]=a&transactionId[]=b`',
    type: [String],
  })
  @IsOptional()
  @Transform(toArray)
  @IsString({ each: true })
  'transactionId[]'?: string[];

  @ApiPropertyOptional({ description: 'Page number, from 0', minimum: 0, maximum: MAX_PAGE, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_PAGE)
  page: number = 0;

  @ApiPropertyOptional({ description: 'Messages per page, 1 to 1000 (400 beyond)', minimum: 1, maximum: 1000, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit: number = 10;
}

export class DeleteMessagesQueryDto {
  @ApiPropertyOptional({ description: 'Only delete the messages of this channel', enum: CHANNELS })
  @IsOptional()
  @IsIn(CHANNELS)
  channel?: Channel;
}

export class ServerMarkMessagesAsRequestDto extends MarkMessagesAsRequestDto {
  @ApiProperty({ description: 'Your own identifier of the subscriber whose messages these are', example: 'user-123' })
  @IsString()
  subscriberId: string;
}

export class DeleteMessageResponseDto {
  @ApiProperty({ description: 'Always true' })
  acknowledged: boolean;
  @ApiProperty({ description: 'Always "deleted"' })
  status: string;
}
