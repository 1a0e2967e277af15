import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { DeleteMessagesByTransaction, ListMessages } from '@app/delivery';
import { DeleteMessage, MarkMessagesAs } from '@app/inbox';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { MessageResponseDto, MessagesResponseDto } from '../shared-dto/message.dto';
import { idsOf, toMessageResponse } from '../shared-dto/message.mapper';
import { DeleteMessageResponseDto, DeleteMessagesQueryDto, ListMessagesQueryDto, ServerMarkMessagesAsRequestDto } from './message.dto';
import { toMessagesResponse } from './message.mapper';

@ApiTags('Messages')
@ApiCommonErrors()
@Controller({ path: 'messages', version: '1' })
export class MessagesController {
  constructor(
    private readonly listMessages: ListMessages,
    private readonly deleteMessagesByTransaction: DeleteMessagesByTransaction,
    private readonly markMessagesAs: MarkMessagesAs,
    private readonly deleteMessage: DeleteMessage,
  ) {}

  @Post('mark-as')
  @ApiOperation({
    summary: "Mark a subscriber's in-app messages read, unread, seen or unseen",
    description: "As the subscriber's Inbox would (its open sockets hear the new counts). Answers with the messages found.",
  })
  @ApiDataResponse(MessageResponseDto, { status: 201, isArray: true })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async markAs(@CurrentScope() scope: AuthenticatedScope, @Body() body: ServerMarkMessagesAsRequestDto): Promise<MessageResponseDto[]> {
    const ids = idsOf(body.messageId);
    const messages = await this.markMessagesAs.execute(scope, body.subscriberId, ids, body.markAs);
    return messages.map((message) => toMessageResponse(message));
  }

  @Delete(':messageId')
  @ApiOperation({ summary: 'Delete one message' })
  @ApiParam({ name: 'messageId', description: 'The message id' })
  @ApiDataResponse(DeleteMessageResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such message' })
  async delete(@CurrentScope() scope: AuthenticatedScope, @Param('messageId') messageId: string): Promise<DeleteMessageResponseDto> {
    await this.deleteMessage.execute(scope, messageId);
    return { acknowledged: true, status: 'deleted' };
  }

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
      transactionIds: query.transactionId || query['transactionId[]'] ? [...(query.transactionId ?? []), ...(query['transactionId[]'] ?? [])] : undefined,
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
