import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { CancelTrigger, TriggerEvent } from '@app/delivery';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto, ValidationErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { TriggerRateLimitGuard } from '../http/trigger-rate-limit.guard';
import { TriggerEventRequestDto, TriggerEventResponseDto } from './trigger-event.dto';
import { toTriggerEventCommand, toTriggerEventResponse } from './trigger-event.mapper';

@ApiTags('Events')
@ApiCommonErrors()
@Controller({ path: 'events', version: '1' })
export class EventsController {
  constructor(
    private readonly triggerEvent: TriggerEvent,
    private readonly cancelTrigger: CancelTrigger,
  ) {}

  @Post('trigger')
  @HttpCode(201)
  @UseGuards(TriggerRateLimitGuard)
  @ApiOperation({
    summary: 'Trigger a workflow for one or more recipients',
    description:
      'Answers once the trigger is durably accepted; delivery runs in the background. A repeated transactionId is acknowledged ' +
      'the same way and delivers nothing. Other statuses (all 201): trigger_not_active, no_tenant_found, no_workflow_steps_defined, ' +
      'no_workflow_active_steps_defined.',
  })
  @ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' })
  // Succeeds on a fresh start once the example workflow of POST /v1/workflows exists.
  @ApiBody({
    type: TriggerEventRequestDto,
    examples: {
      subscriber: {
        summary: 'One subscriber (created if unknown)',
        value: { name: 'order-shipped', to: { subscriberId: 'user-123', email: 'ada@example.com' }, payload: { orderId: 'A-1001' } },
      },
    },
  })
  @ApiDataResponse(TriggerEventResponseDto, { status: 201, description: 'The trigger was acknowledged' })
  @ApiUnprocessableEntityResponse({
    type: ValidationErrorResponseDto,
    description: 'Invalid body or recipients ("Validation Error"), or no workflow with that trigger identifier ("workflow_not_found")',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'payload larger than 512 KB' })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description:
      'The environment sent more than TRIGGER_RATE_LIMIT triggers in the current window (code rate_limited); nothing was stored. ' +
      'Every answer of this route carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds) while the limit is on.',
    headers: { 'Retry-After': { description: 'Seconds until the window ends', schema: { type: 'integer' } } },
  })
  async trigger(@CurrentScope() scope: AuthenticatedScope, @Body() body: TriggerEventRequestDto): Promise<TriggerEventResponseDto> {
    return toTriggerEventResponse(await this.triggerEvent.execute(toTriggerEventCommand(scope, body)));
  }

  @Delete('trigger/:transactionId')
  @ApiOperation({
    summary: 'Cancel a triggered event',
    description: 'Cancels every job of the transaction not sent yet, delayed and digest-waiting ones included. True when anything was canceled.',
  })
  @ApiParam({ name: 'transactionId', description: 'The transactionId the trigger answered with', example: 'order-A-1001' })
  @ApiOkResponse({
    description: 'Whether anything was canceled',
    schema: { type: 'object', required: ['data'], properties: { data: { type: 'boolean', description: 'True when anything was canceled' } } },
  })
  async cancel(@CurrentScope() scope: AuthenticatedScope, @Param('transactionId') transactionId: string): Promise<boolean> {
    return this.cancelTrigger.execute(scope, transactionId);
  }
}
