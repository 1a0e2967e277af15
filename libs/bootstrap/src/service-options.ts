import { DynamicModule, Provider } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Clock, HealthProbe } from '@app/kernel';

/** What every process (api, worker, cli) is built from: the configuration, plus what tests vary. */
export interface ServiceOptions {
  config: AppConfig;
  clock?: Clock;
  /** Put before QUEUE_PREFIX: keeps Redis keys of parallel test runs apart. */
  redisKeyPrefix?: string;
  /** PostgreSQL schema to use (tests). */
  sqlSchema?: string;
  /** MongoDB database to use instead of the URL's (tests). */
  mongoDatabase?: string;
}

/**
 * Concurrent jobs share statements (CallBatcher), so connections need not grow with
 * WORKER_CONCURRENCY: one per ten jobs, at most 20, so four processes fit in PostgreSQL's default 100 connections.
 * The MongoDB pool gets the same size.
 */
export function sqlPoolSize(config: AppConfig): number {
  return Math.min(20, 5 + Math.ceil(config.workerConcurrency / 10));
}

/** What a process takes from its store besides the repositories. */
export interface StoreWiring {
  /** the store's module: its client and every repository */
  module: DynamicModule;
  /** the token of the store's client */
  client: symbol;
  healthProbe(client: unknown): HealthProbe;
  /** where a process without Redis keeps idempotency keys */
  idempotencyStore: Provider;
}
