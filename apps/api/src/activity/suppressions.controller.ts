import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { LiftSuppression, ListSuppressions, Suppression } from '@app/delivery';
import { ApiCommonErrors, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { ListSuppressionsQueryDto, SuppressionListResponseDto, SuppressionResponseDto } from './activity.dto';

function toSuppressionResponse(s: Suppression): SuppressionResponseDto {
  return {
    address: s.address,
    channel: s.channel,
    reason: s.reason,
    providerId: s.providerId,
    messageId: s.messageId,
    ...(s.detail !== undefined ? { detail: s.detail } : {}),
    createdAt: s.createdAt.toISOString(),
  };
}

@ApiTags('Suppressions')
@ApiCommonErrors()
@Controller({ path: 'suppressions', version: '2' })
export class SuppressionsController {
  constructor(
    private readonly listSuppressions: ListSuppressions,
    private readonly liftSuppression: LiftSuppression,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: 'List the suppressed addresses of the environment, newest first',
    description:
      'Beyond Novu. An address lands here when a provider reports a hard bounce or a spam report through the inbound webhook (unless SUPPRESS_BOUNCED_ADDRESSES=false); ' +
      'email and SMS steps to it are then skipped with an execution detail saying why.',
  })
  @ApiOkResponse({ type: SuppressionListResponseDto, description: 'One page of suppressed addresses' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListSuppressionsQueryDto): Promise<SuppressionListResponseDto> {
    const page = await this.listSuppressions.execute(scope, { page: query.page, limit: query.limit });
    return {
      data: page.items.map(toSuppressionResponse),
      page: query.page,
      pageSize: query.limit,
      totalCount: page.totalCount,
      hasMore: query.page * query.limit + page.items.length < page.totalCount,
    };
  }

  @Delete(':address')
  @HttpCode(204)
  @ApiOperation({ summary: 'Lift the suppression of an address: later sends to it go out again' })
  @ApiParam({ name: 'address', description: 'The suppressed email (any case) or phone number, URL-encoded', example: 'bounced@example.com' })
  @ApiNoContentResponse({ description: 'The suppression was lifted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'The address is not suppressed' })
  async lift(@CurrentScope() scope: AuthenticatedScope, @Param('address') address: string): Promise<void> {
    await this.liftSuppression.execute(scope, address);
  }
}
