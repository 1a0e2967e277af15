import { Controller, Get, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { METRICS_CONTENT_TYPE, PromMetrics } from '@app/metrics';
import { PublicRoute } from '../http/api-key.guard';
import { RawResponse } from '../http/envelope.interceptor';

/** Prometheus scrapes this process here; like the health check it needs no API key (keep it off the public internet). */
@ApiTags('Metrics')
@Controller({ path: 'metrics', version: VERSION_NEUTRAL })
@PublicRoute()
export class MetricsController {
  constructor(private readonly metrics: PromMetrics) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: 'Prometheus metrics of this process (no API key)',
    description:
      'Prometheus text format: HTTP requests by route pattern, triggers by status, deliveries by channel, provider and outcome, ' +
      'provider send latency, queue depth and oldest waiting job, reconciler re-enqueues, Node process metrics.',
    security: [],
  })
  @ApiProduces(METRICS_CONTENT_TYPE)
  @ApiOkResponse({ description: 'The metrics, in the Prometheus text exposition format', schema: { type: 'string' } })
  async scrape(@Res() response: FastifyReply): Promise<void> {
    const text = await this.metrics.metrics();
    await response.status(200).headers({ 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' }).send(text);
  }
}
