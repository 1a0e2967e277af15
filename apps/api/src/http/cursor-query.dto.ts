import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { CursorPage } from '@app/kernel';

export const ORDER_BY_VALUES = ['_id', 'updatedAt', 'createdAt'] as const;

/** Query of Novu's v2 cursor lists (subscribers, topics, topic subscriptions), sortable by `orderFields`. */
export function cursorQueryDto<F extends readonly [string, ...string[]]>(orderFields: F) {
  class CursorQuery {
    @ApiPropertyOptional({ description: 'Cursor (an item `_id`): return the items after it' })
    @IsOptional()
    @IsString()
    after?: string;

    @ApiPropertyOptional({ description: 'Cursor (an item `_id`): return the items before it; not together with `after`' })
    @IsOptional()
    @IsString()
    before?: string;

    @ApiPropertyOptional({ description: 'Items per page, 1 to 100', minimum: 1, maximum: 100, default: 10 })
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(1)
    @Max(100)
    limit: number = 10;

    @ApiPropertyOptional({ description: 'Sort direction', enum: ['ASC', 'DESC'], default: 'DESC' })
    @IsOptional()
    @IsIn(['ASC', 'DESC'])
    orderDirection: 'ASC' | 'DESC' = 'DESC';

    @ApiPropertyOptional({ description: 'Field to sort by (ties broken by `_id`)', enum: orderFields, default: '_id' })
    @IsOptional()
    @IsIn(orderFields)
    orderBy: F[number] = '_id';

    @ApiPropertyOptional({ description: 'Include the cursor item itself; only the string "true" turns it on', type: String, example: 'true' })
    @IsOptional()
    @IsString()
    includeCursor?: string;
  }
  return CursorQuery;
}

export class CursorQueryDto extends cursorQueryDto(ORDER_BY_VALUES) {}

/** The paging fields of a cursor list answer; each list adds its `data`. */
export class CursorPageDto {
  @ApiProperty({ description: 'Cursor of the next page, null on the last page', type: String, nullable: true })
  next: string | null;
  @ApiProperty({ description: 'Cursor of the previous page, null on the first page', type: String, nullable: true })
  previous: string | null;
  @ApiProperty({ description: 'Number of matching items, at most 50,000' })
  totalCount: number;
  @ApiProperty({ description: 'Whether more than 50,000 items match' })
  totalCountCapped: boolean;
}

/** The cursor part of a list query, in the shape use cases take. */
interface CursorQueryFields<F extends string> {
  after?: string;
  before?: string;
  limit: number;
  orderDirection: 'ASC' | 'DESC';
  orderBy: F;
  includeCursor?: string;
}

export function cursorRequest<F extends string>(query: CursorQueryFields<F>) {
  return {
    ...(query.after !== undefined ? { after: query.after } : {}),
    ...(query.before !== undefined ? { before: query.before } : {}),
    limit: query.limit,
    orderDirection: query.orderDirection,
    orderBy: query.orderBy,
    includeCursor: query.includeCursor === 'true',
  };
}

/** A cursor page in Novu's wire shape: `{data, next, previous, totalCount, totalCountCapped}`. */
export function toCursorPageResponse<T, R>(page: CursorPage<T>, map: (item: T) => R) {
  return { data: page.items.map(map), next: page.next, previous: page.previous, totalCount: page.totalCount, totalCountCapped: page.totalCountCapped };
}
