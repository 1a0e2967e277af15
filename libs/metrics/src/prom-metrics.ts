import { Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryOutcome, JobQueue, Metrics, ReconcileKind, ThrottleOutcome } from '@app/kernel';

/** The queue states reported as depth (completed jobs are history, not depth). */
const DEPTH_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

/** What `metrics()` returns: the Prometheus text exposition format. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** Route label of a request no route answered (unknown path, or refused before routing: bad JSON, body too large). */
export const UNMATCHED_ROUTE = 'unmatched';

export interface PromMetricsOptions {
  /** Node process metrics (CPU, memory, event loop lag, GC…) from prom-client (default true). */
  defaultMetrics?: boolean;
  /** Queues whose depth and oldest waiting job are read from `queue` at each scrape. */
  queues?: { queue: JobQueue; names: string[] };
}

interface QueueReading {
  name: string;
  counts?: Record<(typeof DEPTH_STATES)[number], number>;
  oldestWaitingAgeMs?: number;
}

/**
 * The Metrics port on prom-client, plus the HTTP request histogram the api records. Each instance
 * has its own registry (several apps can live in one process, as in the tests).
 */
export class PromMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly logger = new Logger(PromMetrics.name);
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly triggers: Counter<'status'>;
  private readonly deliveries: Counter<'channel' | 'provider' | 'outcome'>;
  private readonly sendDuration: Histogram<'channel' | 'provider'>;
  private readonly reconciles: Counter<'kind'>;
  private readonly throttles: Counter<'outcome'>;
  /** One read of the queues per scrape, shared by the gauges that report it. */
  private queueReading?: Promise<QueueReading[]>;

  constructor(options: PromMetricsOptions = {}) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'notify_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code, and how long they took to answer (its _count is the request count)',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.triggers = new Counter({
      name: 'notify_triggers_accepted_total',
      help: 'Triggers answered by POST /v1/events/trigger, by the status answered (processed, trigger_not_active, …)',
      labelNames: ['status'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'notify_deliveries_total',
      help: 'Delivery attempts by channel, provider and outcome (sent, failed, retried, failed_over), counted by the process that ran them',
      labelNames: ['channel', 'provider', 'outcome'],
      registers,
    });
    this.sendDuration = new Histogram({
      name: 'notify_provider_send_duration_seconds',
      help: 'How long provider send calls took, by channel and provider, whatever their outcome',
      labelNames: ['channel', 'provider'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    });
    this.reconciles = new Counter({
      name: 'notify_reconciled_total',
      help: 'Items the reconcilers re-enqueued because the queue never got or lost them, by kind (triggers, steps)',
      labelNames: ['kind'],
      registers,
    });
    this.throttles = new Counter({
      name: 'notify_throttle_runs_total',
      help: 'Runs of throttle steps by outcome: admitted (the chain goes on) or throttled (the window was full; the rest of the chain is skipped)',
      labelNames: ['outcome'],
      registers,
    });
    if (options.queues) this.watchQueues(options.queues.queue, options.queues.names);
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** The Prometheus text exposition of everything this process counts. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  httpRequest(method: string, route: string, statusCode: number, durationMs: number): void {
    this.httpDuration.observe({ method, route, status_code: statusCode }, durationMs / 1000);
  }

  triggerAccepted(status: string): void {
    this.triggers.inc({ status });
  }

  delivery(channel: string, providerId: string, outcome: DeliveryOutcome, durationMs?: number): void {
    this.deliveries.inc({ channel, provider: providerId, outcome });
    if (durationMs !== undefined) this.sendDuration.observe({ channel, provider: providerId }, durationMs / 1000);
  }

  reconciled(kind: ReconcileKind, count: number): void {
    this.reconciles.inc({ kind }, count);
  }

  throttle(outcome: ThrottleOutcome): void {
    this.throttles.inc({ outcome });
  }

  private watchQueues(queue: JobQueue, names: string[]): void {
    const read = () => (this.queueReading ??= this.readQueues(queue, names).finally(() => (this.queueReading = undefined)));
    new Gauge({
      name: 'notify_queue_jobs',
      help: 'Jobs in each queue by state (waiting, delayed, active, failed), read at scrape time',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const reading of await read()) {
          for (const state of DEPTH_STATES) if (reading.counts) this.set({ queue: reading.name, state }, reading.counts[state]);
        }
      },
    });
    new Gauge({
      name: 'notify_queue_oldest_waiting_job_age_seconds',
      help: 'How long the job next in line in each queue has waited since it was due (0: none waits), read at scrape time',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const reading of await read()) {
          if (reading.counts) this.set({ queue: reading.name }, (reading.oldestWaitingAgeMs ?? 0) / 1000);
        }
      },
    });
  }

  /** A queue that cannot be read is left out of the scrape (and logged) rather than failing it. */
  private readQueues(queue: JobQueue, names: string[]): Promise<QueueReading[]> {
    return Promise.all(
      names.map(async (name): Promise<QueueReading> => {
        try {
          const [counts, oldestWaitingAgeMs] = await Promise.all([queue.getCounts(name), queue.getOldestWaitingAgeMs(name)]);
          return { name, counts, oldestWaitingAgeMs };
        } catch (error) {
          this.logger.warn(`Queue "${name}" could not be read for metrics: ${(error as Error).message}`);
          return { name };
        }
      }),
    );
  }
}
