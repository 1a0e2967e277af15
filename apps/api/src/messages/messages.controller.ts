import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { DeleteMessagesByTransaction, ListMessages } from '@app/delivery';
import { ApiCommonErrors, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { DeleteMessagesQueryDto, ListMessagesQueryDto, MessagesResponseDto } from './message.dto';
import { toMessagesResponse } from './message.mapper';

@ApiTags('Messages')
@ApiCommonErrors()
@Controller({ path: 'messages', version: '1' })
export class MessagesController {
  constructor(
    private readonly listMessages: ListMessages,
    private readonly deleteMessagesByTransaction: DeleteMessagesByTransaction,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({ summary: 'List messages, newest first, by channel, subscriber and transaction ids (page-based)' })
  @ApiOkResponse({ type: MessagesResponseDto, description: 'One page of messages' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'limit larger than 1000' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListMessagesQueryDto): Promise<MessagesResponseDto> {
    const page = await this.listMessages.execute(scope, {
      channel: query.channel,
      subscriberId: query.subscriberId,
      transactionIds: query.transactionId,
      page: query.page,
      limit: query.limit,
    });
    return toMessagesResponse(page, query);
  }

  @Delete('transaction/:transactionId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete every message of a transaction, optionally only those of one channel' })
  @ApiParam({ name: 'transactionId', description: 'The transactionId of the trigger', example: 'order-A-1001' })
  @ApiNoContentResponse({ description: 'The messages were deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No message matches the transactionId (and channel)' })
  async deleteByTransaction(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('transactionId') transactionId: string,
    @Query() query: DeleteMessagesQueryDto,
  ): Promise<void> {
    await this.deleteMessagesByTransaction.execute(scope, transactionId, query.channel);
  }
}
