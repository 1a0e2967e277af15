import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { GetWebhookSupportStatus } from '@app/delivery';
import {
  CreateIntegration,
  DeleteIntegration,
  GetInAppStatus,
  ListActiveIntegrations,
  ListIntegrations,
  SetIntegrationPrimary,
  UpdateIntegration,
} from '@app/integrations';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { CreateIntegrationRequestDto, IntegrationResponseDto, UpdateIntegrationRequestDto } from './integration.dto';
import { definedFields, toConditions, toCredentials, toIntegrationResponse } from './integration.mapper';

const IntegrationIdParam = () => ApiParam({ name: 'integrationId', description: 'The integration `_id`', example: '6615c2a0f1c2a3b4c5d6e7f8' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });

@ApiTags('Integrations')
@ApiCommonErrors()
@Controller({ path: 'integrations', version: '1' })
export class IntegrationsController {
  constructor(
    private readonly createIntegration: CreateIntegration,
    private readonly updateIntegration: UpdateIntegration,
    private readonly deleteIntegration: DeleteIntegration,
    private readonly listIntegrations: ListIntegrations,
    private readonly listActiveIntegrations: ListActiveIntegrations,
    private readonly setIntegrationPrimary: SetIntegrationPrimary,
    private readonly getInAppStatus: GetInAppStatus,
    private readonly getWebhookSupportStatus: GetWebhookSupportStatus,
  ) {}

  @Get()
  @ApiOperation({ summary: "List the environment's integrations (deleted ones left out)" })
  @ApiDataResponse(IntegrationResponseDto, { isArray: true, description: 'The integrations of the environment' })
  async list(@CurrentScope() scope: AuthenticatedScope): Promise<IntegrationResponseDto[]> {
    return (await this.listIntegrations.execute({ scope })).map(toIntegrationResponse);
  }

  @Get('active')
  @ApiOperation({ summary: 'List the active integrations of the whole organization, across its environments' })
  @ApiDataResponse(IntegrationResponseDto, { isArray: true, description: 'Active integrations of every environment of the organization' })
  async listActive(@CurrentScope() scope: AuthenticatedScope): Promise<IntegrationResponseDto[]> {
    return (await this.listActiveIntegrations.execute({ scope })).map(toIntegrationResponse);
  }

  @Get('in-app/status')
  @ApiOperation({ summary: 'Whether the environment has an active in-app integration' })
  @ApiOkResponse({
    description: 'True when an active in-app integration exists',
    schema: { type: 'object', required: ['data'], properties: { data: { type: 'boolean', description: 'An active in-app integration exists' } } },
  })
  async inAppStatus(@CurrentScope() scope: AuthenticatedScope): Promise<boolean> {
    return this.getInAppStatus.execute({ scope });
  }

  @Get('webhook/provider/:providerOrIntegrationId/status')
  @ApiOperation({
    summary: "Whether the service reads the provider's delivery event webhook",
    description:
      'A provider id picks the first integration of that provider with credentials, anything else is an integration `_id`. True ' +
      'for the providers whose event webhooks POST /v2/inbound-webhooks/delivery-providers/... reads (sendgrid, mailgun, resend, ' +
      'postmark, mailjet, sendinblue, ses, twilio, telnyx, nexmo, messagebird, plivo, infobip-sms, sms77); false for the other ' +
      'email and sms providers (nodemailer, email-webhook, sns, generic-sms).',
  })
  @ApiParam({ name: 'providerOrIntegrationId', description: 'A provider id (e.g. `sendgrid`) or an integration `_id`', example: 'sendgrid' })
  @ApiOkResponse({
    description: 'Whether delivery events of the integration can come in',
    schema: { type: 'object', required: ['data'], properties: { data: { type: 'boolean', description: 'The provider event webhook is read' } } },
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Integration for <id> was not found' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The integration has no credentials, or is not an email or sms integration' })
  async webhookStatus(@CurrentScope() scope: AuthenticatedScope, @Param('providerOrIntegrationId') providerOrIntegrationId: string): Promise<boolean> {
    return this.getWebhookSupportStatus.execute({ scope, providerOrIntegrationId });
  }

  @Post()
  @ApiOperation({
    summary: 'Create an integration in the environment of the API key',
    description:
      'The first active email or sms integration becomes primary. `active: true` requires the provider credentials (422 naming the ' +
      'missing ones); `check: true` also checks them live (400 with the provider message).',
  })
  @IdempotencyKeyHeader()
  @ApiDataResponse(IntegrationResponseDto, { status: 201, description: 'The created integration' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Channel mismatch, second in-app provider, or a failed live check' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Integration with identifier already exists' })
  async create(@CurrentScope() scope: AuthenticatedScope, @Body() body: CreateIntegrationRequestDto): Promise<IntegrationResponseDto> {
    const integration = await this.createIntegration.execute({
      scope,
      providerId: body.providerId,
      channel: body.channel,
      name: body.name,
      identifier: body.identifier,
      environmentId: body._environmentId,
      credentials: toCredentials(body.credentials),
      active: body.active,
      check: body.check,
      conditions: toConditions(body.conditions),
      configurations: definedFields(body.configurations),
      fallbacks: body.fallbacks,
      rateLimit: body.rateLimit,
      maxConcurrency: body.maxConcurrency,
    });
    return toIntegrationResponse(integration);
  }

  @Put(':integrationId')
  @ApiOperation({
    summary: 'Update an integration; fields left out stay as they are',
    description: 'An empty body answers 400 "No properties found for update". Credentials merge into the stored ones.',
  })
  @IntegrationIdParam()
  @ApiDataResponse(IntegrationResponseDto, { description: 'The integration after the change' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'No properties found for update, or a failed live check' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Entity with id <id> not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Integration with identifier already exists' })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('integrationId') id: string,
    @Body() body: UpdateIntegrationRequestDto,
  ): Promise<IntegrationResponseDto> {
    const integration = await this.updateIntegration.execute({
      scope,
      id,
      environmentId: body._environmentId,
      check: body.check,
      changes: {
        name: body.name,
        identifier: body.identifier,
        active: body.active,
        credentials: toCredentials(body.credentials),
        conditions: toConditions(body.conditions),
        configurations: definedFields(body.configurations),
        fallbacks: body.fallbacks,
        rateLimit: body.rateLimit,
        maxConcurrency: body.maxConcurrency,
      },
    });
    return toIntegrationResponse(integration);
  }

  @Post(':integrationId/set-primary')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Make an email or sms integration the primary of its channel',
    description:
      "As Novu: it becomes active and primary and loses its conditions; the channel's other integrations stop being primary and the " +
      'priorities are renumbered with it on top. One that is primary already is answered as it is. An inactive one must have the ' +
      "provider's required credentials (422 naming the missing ones).",
  })
  @IntegrationIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(IntegrationResponseDto, { status: 201, description: 'The integration, now primary' })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'Channel <channel> does not support primary (only email and sms have one), or integrationId must be a mongodb id (as Novu)',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Entity with id <id> not found' })
  async setPrimary(@CurrentScope() scope: AuthenticatedScope, @Param('integrationId') id: string): Promise<IntegrationResponseDto> {
    return toIntegrationResponse(await this.setIntegrationPrimary.execute({ scope, id }));
  }

  @Delete(':integrationId')
  @ApiOperation({ summary: 'Delete an integration (soft delete); answers the integrations the environment still has' })
  @IntegrationIdParam()
  @ApiDataResponse(IntegrationResponseDto, { isArray: true, description: 'The remaining integrations of the environment' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Entity with id <id> not found' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('integrationId') id: string): Promise<IntegrationResponseDto[]> {
    const remaining = await this.deleteIntegration.execute({ scope, id, deletedBy: scope.apiKeyId });
    return remaining.map(toIntegrationResponse);
  }
}
