import { Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '@app/config';
import { ReceiveVendorEvents } from '@app/delivery';
import { ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { PublicRoute } from '../http/api-key.guard';
import { InboundWebhookResultDto } from './activity.dto';

/** Where the raw-body parser of configure-app applies (and the JSON one does not). */
export const INBOUND_WEBHOOKS_PATH = '/v2/inbound-webhooks/';

@ApiTags('Inbound webhooks')
@Controller({ path: 'inbound-webhooks', version: '2' })
@PublicRoute()
export class InboundWebhooksController {
  constructor(
    private readonly receiveVendorEvents: ReceiveVendorEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('delivery-providers/:environmentId/:integrationId')
  @HttpCode(200)
  @ApiOperation({
    summary: "A vendor's delivery event webhook (no API key: the vendor's own signature is checked)",
    description:
      "Point the vendor's event webhook here. The integration needs `configurations.inboundWebhookEnabled: true` and the key the vendor signs with in " +
      '`configurations.inboundWebhookSigningKey`: SendGrid (Signed Event Webhook, the base64 verification key; headers X-Twilio-Email-Event-Webhook-Signature/-Timestamp), ' +
      'Mailgun (HTTP webhook signing key), Resend (the whsec_ secret; svix-* headers), Postmark and Mailjet (`user:password` of the webhook URL, sent as Basic auth), Brevo and Infobip (`user:password` as Basic auth, or a bearer token), ' +
      'Amazon SES through SNS (the SNS signing certificate, PEM; a verified SubscriptionConfirmation is confirmed by GETting its SubscribeURL under the outbound network rules), Twilio (status callback; the auth token credential, or this key; the URL as API_PUBLIC_URL + path), ' +
      "Telnyx (the base64 Ed25519 public key), Vonage (the signature secret: a JWT in Authorization: Bearer, or the sig parameter), MessageBird (the signing key; MessageBird-Signature-JWT, usually on the GET route), Plivo (X-Plivo-Signature-V3; the auth token credential, or this key; the URL as API_PUBLIC_URL + path), seven/sms77 (a bearer token equal to this key, or Basic auth). Each event becomes an execution detail of the message's job (source Webhook) and the message's deliveryState; " +
      'a hard bounce or spam report suppresses the address (see /v2/suppressions). A bad, missing or stale (over 5 minutes) signature is a 401 and records nothing; ' +
      'a repeated event is recorded once; an event about an unknown message is acknowledged (200) and records nothing.',
  })
  @ApiParam({ name: 'environmentId', description: 'Id of the environment the integration belongs to' })
  @ApiParam({ name: 'integrationId', description: 'Internal id (_id) of the integration' })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded', 'text/plain')
  @ApiBody({
    description: "The vendor's own event body, unchanged (its signature covers the exact bytes)",
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiDataResponse(InboundWebhookResultDto, { description: 'Accepted: what was recorded' })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Signature bad, missing, or more than 5 minutes old; or no signing key configured' })
  @ApiNotFoundResponse({
    type: ErrorResponseDto,
    description: 'No such integration, inbound webhooks not enabled on it, or its provider sends no events we read',
  })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Correctly signed, but not the body the vendor sends' })
  receive(
    @Param('environmentId') environmentId: string,
    @Param('integrationId') integrationId: string,
    @Req() request: FastifyRequest,
  ): Promise<InboundWebhookResultDto> {
    return this.handle(environmentId, integrationId, request);
  }

  @Get('delivery-providers/:environmentId/:integrationId')
  @ApiOperation({
    summary: "A vendor's delivery report sent as a GET with query parameters (MessageBird status reports, Vonage receipts set to GET)",
    description:
      'The same handling as the POST, for vendors that call with the event in the query string. MessageBird: the signing key, the ' +
      'MessageBird-Signature-JWT header (its url_hash covers the query). Vonage: the signature secret and the sig parameter. Vendors that sign a body refuse it (401).',
  })
  @ApiParam({ name: 'environmentId', description: 'Id of the environment the integration belongs to' })
  @ApiParam({ name: 'integrationId', description: 'Internal id (_id) of the integration' })
  @ApiDataResponse(InboundWebhookResultDto, { description: 'Accepted: what was recorded' })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Signature bad, missing, or more than 5 minutes old; or no signing key configured' })
  @ApiNotFoundResponse({
    type: ErrorResponseDto,
    description: 'No such integration, inbound webhooks not enabled on it, or its provider sends no events we read',
  })
  receiveQuery(
    @Param('environmentId') environmentId: string,
    @Param('integrationId') integrationId: string,
    @Req() request: FastifyRequest,
  ): Promise<InboundWebhookResultDto> {
    return this.handle(environmentId, integrationId, request);
  }

  private async handle(environmentId: string, integrationId: string, request: FastifyRequest): Promise<InboundWebhookResultDto> {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    const result = await this.receiveVendorEvents.execute({ environmentId, integrationId, request: { rawBody, headers, url: this.publicUrl(request) } });
    return {
      recorded: result.recorded,
      duplicates: result.duplicates,
      unknown: result.unknown,
      ...(result.subscription ? { subscriptionConfirmation: true, subscriptionConfirmed: result.subscription.confirmed } : {}),
    };
  }

  /** The URL the vendor called, as it called it (Twilio signs it): API_PUBLIC_URL, else the request's own host and scheme. */
  private publicUrl(request: FastifyRequest): string {
    if (this.config.apiPublicUrl) return this.config.apiPublicUrl + request.url;
    const proto = (request.headers['x-forwarded-proto'] as string | undefined)?.split(',')[0].trim() || request.protocol;
    return `${proto}://${request.headers.host ?? 'localhost'}${request.url}`;
  }
}
