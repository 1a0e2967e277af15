import { Controller, Get, Headers, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { METRICS_CHALLENGE, METRICS_CONTENT_TYPE, MetricsAccess, MetricsTokenRequiredError, PromMetrics } from '@app/metrics';
import { ErrorResponseDto } from '../docs/api-responses';
import { PublicRoute } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';

/**
 * Prometheus scrapes this process here, unless METRICS_PORT moves the metrics to a port of their own
 * (this controller is then not mounted). It takes no API key: METRICS_TOKEN, when set, is what it asks for.
 */
@ApiTags('Metrics')
@Controller({ path: 'metrics', version: VERSION_NEUTRAL })
@PublicRoute()
export class MetricsController {
  constructor(
    private readonly metrics: PromMetrics,
    private readonly access: MetricsAccess,
  ) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: 'Prometheus metrics of this process (no API key)',
    description:
      'Prometheus text format: HTTP requests by route pattern, triggers by status, deliveries by channel, provider and outcome, ' +
      'provider send latency, queue depth and oldest waiting job, reconciler re-enqueues, Node process metrics. ' +
      'When the service sets METRICS_TOKEN, a scrape must send `Authorization: Bearer <METRICS_TOKEN>`.',
    security: [],
  })
  @ApiProduces(METRICS_CONTENT_TYPE)
  @ApiOkResponse({ description: 'The metrics, in the Prometheus text exposition format', schema: { type: 'string' } })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'METRICS_TOKEN is set and the request does not send it as a bearer token' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() response: FastifyReply): Promise<void> {
    if (!this.access.allows(authorization)) {
      void response.header('WWW-Authenticate', METRICS_CHALLENGE);
      throw new MetricsTokenRequiredError();
    }
    const text = await this.metrics.metrics();
    await response.status(200).headers({ 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' }).send(text);
  }
}
