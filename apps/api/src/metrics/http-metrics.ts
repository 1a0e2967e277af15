import type { FastifyInstance } from 'fastify';
import { PromMetrics, UNMATCHED_ROUTE } from '@app/metrics';

/**
 * Times every request from its first byte to its answer (Fastify's own elapsed time) and records it
 * under its route pattern (`/v1/subscribers/:subscriberId`, never the raw path, whose ids would make
 * a series each). Requests refused before a controller (bad JSON, body too large) count too; those
 * that matched no route count under UNMATCHED_ROUTE.
 */
export function recordHttpMetrics(fastify: FastifyInstance, metrics: PromMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const pattern = request.is404 ? undefined : request.routeOptions.url;
    metrics.httpRequest(request.method, pattern && !pattern.includes('*') ? pattern : UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime);
    done();
  });
}
