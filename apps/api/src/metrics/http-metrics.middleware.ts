import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PromMetrics, UNMATCHED_ROUTE } from '@app/metrics';

/**
 * Times every request from its first byte to its answer and records it under its route pattern
 * (`/v1/subscribers/:subscriberId`, never the raw path, whose ids would make a series each).
 * Registered first, so requests refused before routing (bad JSON, body too large) count too.
 */
export function httpMetrics(metrics: PromMetrics): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const started = performance.now();
    response.once('finish', () => metrics.httpRequest(request.method, routePattern(request), response.statusCode, performance.now() - started));
    next();
  };
}

/**
 * The pattern of the last route the request went through. Nest mounts module middleware (such as
 * nestjs-pino's) as a wildcard route, `/{*path}`, ahead of the controllers, which have no
 * wildcards: a request whose last route is a wildcard matched no controller.
 */
function routePattern(request: Request): string {
  const path: unknown = request.route?.path;
  return typeof path === 'string' && !path.includes('*') ? `${request.baseUrl}${path}` : UNMATCHED_ROUTE;
}
