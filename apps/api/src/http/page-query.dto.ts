import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE_SIZE = 100;
/** Far past any real list, and keeps page × limit a safe integer for the store's OFFSET. */
export const MAX_PAGE = 10_000_000;

/** `page` (from 0) and `limit` (1 to 100) of the page-numbered lists; bad values are a 422. */
export class PageQueryDto {
  @ApiPropertyOptional({ description: 'Page number, starting at 0', default: 0, minimum: 0, maximum: MAX_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_PAGE)
  page: number = 0;

  @ApiPropertyOptional({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}`, default: 10, minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = 10;
}
