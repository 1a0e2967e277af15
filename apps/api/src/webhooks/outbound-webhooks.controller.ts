import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  GetReplyCallbackSigner,
  GetWebhookEndpoint,
  ListWebhookAttempts,
  ListWebhookEndpoints,
  RotateWebhookSecret,
  SendTestWebhook,
  UpdateWebhookEndpoint,
} from '@app/webhooks';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';
import { IdempotencyReplayOmits } from '../http/idempotency.interceptor';
import { toAttemptResponse, toEndpointResponse } from './outbound-webhook.mapper';
import {
  CreateWebhookEndpointRequestDto,
  ListWebhookAttemptsQueryDto,
  ListWebhookEndpointsQueryDto,
  ReplyCallbackSecretResponseDto,
  SendTestWebhookRequestDto,
  TestWebhookResponseDto,
  UpdateWebhookEndpointRequestDto,
  WebhookAttemptListResponseDto,
  WebhookEndpointListResponseDto,
  WebhookEndpointResponseDto,
} from './outbound-webhook.dto';

const IdParam = () => ApiParam({ name: 'id', description: 'Id of the webhook endpoint' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
const SecretIdempotencyKeyHeader = () =>
  ApiHeader({
    name: 'idempotency-key',
    required: false,
    description: 'Makes a retry of this request safe: replayed for 24 h, without `secret` (it is shown once and never stored for a replay)',
  });
const NotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No webhook endpoint with that id in this environment' });

/**
 * Message events out: each environment's endpoints receive events POSTed by the worker, signed per
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`)
 * and under the same values as `svix-id`, `svix-timestamp`, `svix-signature`.
 */
@ApiTags('Outbound webhooks')
@ApiCommonErrors()
@Controller({ path: 'outbound-webhooks', version: '2' })
export class OutboundWebhooksController {
  constructor(
    private readonly createEndpoint: CreateWebhookEndpoint,
    private readonly listEndpoints: ListWebhookEndpoints,
    private readonly getEndpoint: GetWebhookEndpoint,
    private readonly updateEndpoint: UpdateWebhookEndpoint,
    private readonly deleteEndpoint: DeleteWebhookEndpoint,
    private readonly rotateSecret: RotateWebhookSecret,
    private readonly listAttempts: ListWebhookAttempts,
    private readonly sendTest: SendTestWebhook,
    private readonly replyCallbackSigner: GetReplyCallbackSigner,
  ) {}

  @Post('endpoints')
  @ApiOperation({
    summary: 'Create a webhook endpoint; the answer holds its signing secret, shown this once',
    description:
      'Events (body `{ type, timestamp, data: { object, previousObject?, error? } }`) are POSTed at least once, with a stable `webhook-id` per event and endpoint; ' +
      'a non-2xx answer or none is retried after the delays of WEBHOOK_RETRY_DELAYS (default +5 s, +30 s, +2 min, +10 min, +30 min, +2 h, +5 h, +10 h). ' +
      'When every attempt of an event failed and nothing succeeded since, the endpoint is disabled (disabledReason, and an `endpoint.disabled` entry in its attempts log).',
  })
  @SecretIdempotencyKeyHeader()
  @IdempotencyReplayOmits('secret')
  @ApiDataResponse(WebhookEndpointResponseDto, { status: 201, description: 'The endpoint, with `secret`' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateWebhookEndpointRequestDto): Promise<WebhookEndpointResponseDto> {
    const { endpoint, secret } = await this.createEndpoint.execute({
      scope,
      url: body.url,
      description: body.description,
      eventTypes: body.eventTypes,
      disabled: body.disabled,
    });
    return toEndpointResponse(endpoint, secret);
  }

  @Get('endpoints')
  @RawResponse()
  @ApiOperation({ summary: 'List the webhook endpoints of the environment, page by page (secrets are not shown)' })
  @ApiOkResponse({ type: WebhookEndpointListResponseDto, description: 'One page of endpoints' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ListWebhookEndpointsQueryDto): Promise<WebhookEndpointListResponseDto> {
    const { items, hasMore } = await this.listEndpoints.execute({ scope, page: query.page, limit: query.limit });
    return { data: items.map((endpoint) => toEndpointResponse(endpoint)), page: query.page, pageSize: query.limit, hasMore };
  }

  @Get('reply-callback-secret')
  @ApiOperation({
    summary: "The environment's reply-callback signing secret",
    description:
      'Every reply-callback POST (a subscriber answering an email of a step with replyCallback.active) is signed with it, with the same Standard Webhooks and svix-* headers as events.',
  })
  @ApiDataResponse(ReplyCallbackSecretResponseDto)
  async replyCallbackSecret(@CurrentScope() scope: AuthenticatedScope): Promise<ReplyCallbackSecretResponseDto> {
    const signer = await this.replyCallbackSigner.execute(scope);
    return { secret: signer.secrets[0].secret };
  }

  @Get('endpoints/:id')
  @ApiOperation({ summary: 'Get a webhook endpoint (its secret is not shown)' })
  @IdParam()
  @ApiDataResponse(WebhookEndpointResponseDto)
  @NotFound()
  async get(@CurrentScope() scope: AuthenticatedScope, @Param('id') id: string): Promise<WebhookEndpointResponseDto> {
    return toEndpointResponse(await this.getEndpoint.execute({ scope, id }));
  }

  @Patch('endpoints/:id')
  @ApiOperation({ summary: 'Change the url, description, eventTypes or disabled of an endpoint (fields left out stay as they are)' })
  @IdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(WebhookEndpointResponseDto, { description: 'The endpoint after the change' })
  @NotFound()
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointRequestDto,
  ): Promise<WebhookEndpointResponseDto> {
    const changes = {
      ...(body.url != null ? { url: body.url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.eventTypes !== undefined ? { eventTypes: body.eventTypes } : {}),
      ...(body.disabled != null ? { disabled: body.disabled } : {}),
    };
    return toEndpointResponse(await this.updateEndpoint.execute({ scope, id, changes }));
  }

  @Delete('endpoints/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint; events not delivered yet are dropped' })
  @IdParam()
  @ApiNoContentResponse({ description: 'Deleted' })
  @NotFound()
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('id') id: string): Promise<void> {
    await this.deleteEndpoint.execute({ scope, id });
  }

  @Post('endpoints/:id/rotate-secret')
  @ApiOperation({
    summary: 'Replace the signing secret; the answer holds the new one, shown this once',
    description:
      'For 24 h the previous secret keeps signing beside the new one: `webhook-signature` holds two space-separated `v1,` signatures, and a receiver with either secret verifies.',
  })
  @IdParam()
  @SecretIdempotencyKeyHeader()
  @IdempotencyReplayOmits('secret')
  @ApiDataResponse(WebhookEndpointResponseDto, { status: 201, description: 'The endpoint, with the new `secret`' })
  @NotFound()
  async rotate(@CurrentScope() scope: AuthenticatedScope, @Param('id') id: string): Promise<WebhookEndpointResponseDto> {
    const { endpoint, secret } = await this.rotateSecret.execute({ scope, id });
    return toEndpointResponse(endpoint, secret);
  }

  @Get('endpoints/:id/attempts')
  @RawResponse()
  @ApiOperation({ summary: "The endpoint's attempts log, newest first: event, status code, latency, error" })
  @IdParam()
  @ApiOkResponse({ type: WebhookAttemptListResponseDto, description: 'One page of attempts' })
  @NotFound()
  async attempts(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('id') id: string,
    @Query() query: ListWebhookAttemptsQueryDto,
  ): Promise<WebhookAttemptListResponseDto> {
    const { items, hasMore } = await this.listAttempts.execute({ scope, id, page: query.page, limit: query.limit });
    return { data: items.map(toAttemptResponse), page: query.page, pageSize: query.limit, hasMore };
  }

  @Post('endpoints/:id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send an example event to the endpoint, through the same signing, retries and attempts log as real events' })
  @IdParam()
  @ApiDataResponse(TestWebhookResponseDto, { status: 202, description: 'Queued; see the attempts log for what the endpoint answered' })
  @NotFound()
  async test(@CurrentScope() scope: AuthenticatedScope, @Param('id') id: string, @Body() body: SendTestWebhookRequestDto): Promise<TestWebhookResponseDto> {
    return this.sendTest.execute({ scope, id, eventType: body.eventType ?? 'message.sent' });
  }
}
