import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_CHALLENGE, MetricsAccess, MetricsTokenRequiredError } from './metrics-access';
import { METRICS_CONTENT_TYPE, PromMetrics } from './prom-metrics';

/**
 * `GET /metrics` on a port of its own (METRICS_PORT): a bare node:http server, so a scrape costs no
 * framework, and the metrics can stay off the API's public port.
 */
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private readonly server: Server;

  constructor(
    private readonly metrics: PromMetrics,
    access: MetricsAccess,
    private readonly port: number,
    private readonly host?: string,
  ) {
    this.server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics\n');
        return;
      }
      if (!access.allows(request.headers.authorization)) {
        // The API's error body, so a scraper reads the same refusal on either port.
        const error = new MetricsTokenRequiredError();
        const body = { statusCode: 401, timestamp: new Date().toISOString(), path, message: error.message, error: 'Unauthorized', code: error.code };
        response.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8', 'WWW-Authenticate': METRICS_CHALLENGE }).end(JSON.stringify(body));
        return;
      }
      this.metrics.metrics().then(
        (text) => response.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE }).end(request.method === 'HEAD' ? undefined : text),
        (error) => {
          this.logger.error(`Metrics scrape failed: ${(error as Error).message}`);
          response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected\n');
        },
      );
    });
  }

  /** The port listened on (useful when configured as 0: any free port). */
  get boundPort(): number | undefined {
    return (this.server.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.logger.log(`Metrics at http://${this.host ?? '0.0.0.0'}:${this.boundPort}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
