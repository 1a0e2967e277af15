import { Body, Controller, Delete, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
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
import { AdmissionRelease } from '../http/fair-admission.interceptor';
import type { Release } from '../http/fair-admission';
import { BulkTriggerRateLimitGuard, TriggerRateLimitGuard } from '../http/trigger-rate-limit.guard';
import { createValidationPipe } from '../http/validation';
import {
  BroadcastEventRequestDto,
  BulkTriggerEventRequestDto,
  BulkTriggerEventResultDto,
  TriggerEventRequestDto,
  TriggerEventResponseDto,
} from './trigger-event.dto';
import { toBroadcastCommand, toBulkItemError, toTriggerEventCommand, toTriggerEventResponse } from './trigger-event.mapper';

const RateLimited = () =>
  ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description:
      'The environment sent more than TRIGGER_RATE_LIMIT triggers in the current window (code rate_limited); nothing was stored. ' +
      'Every answer of this route carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds) while the limit is on.',
    headers: { 'Retry-After': { description: 'Seconds until the window ends', schema: { type: 'integer' } } },
  });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });

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
  @IdempotencyKeyHeader()
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
  @RateLimited()
  async trigger(
    @CurrentScope() scope: AuthenticatedScope,
    @Body() body: TriggerEventRequestDto,
    @AdmissionRelease() releaseAdmission: Release,
  ): Promise<TriggerEventResponseDto> {
    return toTriggerEventResponse(await this.triggerEvent.execute(toTriggerEventCommand(scope, body), { onceWaitingForStore: releaseAdmission }));
  }

  @Post('trigger/bulk')
  @HttpCode(201)
  @UseGuards(BulkTriggerRateLimitGuard)
  @ApiOperation({
    summary: 'Trigger up to 100 workflows in one request',
    description:
      'Each event is a POST /v1/events/trigger body and gets its own answer, in order. The events that pass are accepted together ' +
      '(one insert, one fan-out job); one that fails answers `{acknowledged: true, status: "error", error: [...]}` in its place ' +
      '(e.g. `workflow_not_found`, or the validation messages) and the others still run. Each event counts as one trigger ' +
      'against TRIGGER_RATE_LIMIT.',
  })
  @IdempotencyKeyHeader()
  @ApiBody({
    type: BulkTriggerEventRequestDto,
    examples: {
      twoEvents: {
        summary: 'Two triggers of one workflow',
        value: {
          events: [
            { name: 'order-shipped', to: 'user-123', payload: { orderId: 'A-1001' } },
            { name: 'order-shipped', to: { subscriberId: 'user-456' }, payload: { orderId: 'A-1002' } },
          ],
        },
      },
    },
  })
  @ApiDataResponse(BulkTriggerEventResultDto, { status: 201, isArray: true, description: 'One answer per event, in the order sent' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorResponseDto, description: '`events` is not an array of 1 to 100 items' })
  @RateLimited()
  async triggerBulk(
    @CurrentScope() scope: AuthenticatedScope,
    @Body() body: BulkTriggerEventRequestDto,
    @Req() request: FastifyRequest,
    @AdmissionRelease() releaseAdmission: Release,
  ): Promise<BulkTriggerEventResultDto[]> {
    // Each event is validated as a trigger body on its own: a bad one is refused in its place, as Novu does.
    const pipe = createValidationPipe();
    const parsed = await Promise.allSettled(
      body.events.map((event) => pipe.transform(event, { type: 'body', metatype: TriggerEventRequestDto }) as Promise<TriggerEventRequestDto>),
    );
    const valid = parsed.flatMap((outcome) => (outcome.status === 'fulfilled' ? [toTriggerEventCommand(scope, outcome.value)] : []));
    const results = await this.triggerEvent.executeMany(valid, { onceWaitingForStore: releaseAdmission });
    return parsed.map((outcome) => {
      if (outcome.status === 'rejected') return toBulkItemError(outcome.reason, request.url);
      const result = results.shift()!;
      return result.status === 'fulfilled' ? toTriggerEventResponse(result.value) : toBulkItemError(result.reason, request.url);
    });
  }

  @Post('trigger/broadcast')
  @HttpCode(201)
  @UseGuards(TriggerRateLimitGuard)
  @ApiOperation({
    summary: 'Trigger a workflow for every subscriber of the environment',
    description:
      'A trigger without `to`: the fan-out reads the subscribers of the environment in batches (500 at most, fewer for large payloads) ' +
      'and delivers each batch while reading the next, so any number of subscribers runs in bounded memory. Cancel it by its ' +
      'transactionId like any trigger; the batches not yet delivered are then skipped.',
  })
  @IdempotencyKeyHeader()
  @ApiBody({
    type: BroadcastEventRequestDto,
    examples: { announcement: { summary: 'An announcement to everyone', value: { name: 'product-news', payload: { title: 'Version 2 is out' } } } },
  })
  @ApiDataResponse(TriggerEventResponseDto, { status: 201, description: 'The broadcast was acknowledged' })
  @ApiUnprocessableEntityResponse({
    type: ValidationErrorResponseDto,
    description: 'Invalid body ("Validation Error"), or no workflow with that trigger identifier ("workflow_not_found")',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'payload larger than 512 KB' })
  @RateLimited()
  async broadcast(@CurrentScope() scope: AuthenticatedScope, @Body() body: BroadcastEventRequestDto): Promise<TriggerEventResponseDto> {
    return toTriggerEventResponse(await this.triggerEvent.execute(toBroadcastCommand(scope, body)));
  }

  @Delete('trigger/:transactionId')
  @ApiOperation({
    summary: 'Cancel a triggered event',
    description:
      'Cancels every job of the transaction not sent yet, delayed and digest-waiting ones included, and the rest of a topic or ' +
      'broadcast fan-out still running. True when anything was canceled.',
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
