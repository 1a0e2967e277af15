import { Injectable, Logger as NestLogger, LoggerService, OnApplicationShutdown, BeforeApplicationShutdown } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import pretty from 'pino-pretty';
import { AppConfig } from '@app/config';

/** Nest's own start-up chatter (modules initialised, every route mapped): useful when debugging, noise otherwise. */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/**
 * nestjs-pino options for every process: human-readable lines on a terminal (`LOG_FORMAT=pretty`,
 * the default when stdout is a TTY outside production), JSON lines otherwise. No route gets the
 * per-request logger (the api's trigger route paid a fifth of its throughput for it), and with no
 * middleware at all Fastify's middleware runner does no work per request either.
 */
export function loggerOptions(config: AppConfig): Params {
  const options = {
    level: config.logLevel,
    // An error logged as an object shows what it is, never the values it carried (a store error's
    // parameters can be another integration's credentials).
    serializers: { err: errorSummary },
    redact: { paths: REDACTED_PATHS, censor: '****' },
  };
  return {
    // Pretty lines are written synchronously, so the last ones before exit (shutdown) are not lost.
    pinoHttp:
      config.logFormat === 'pretty'
        ? [
            options,
            pretty({
              colorize: true,
              sync: true,
              translateTime: 'SYS:HH:MM:ss',
              ignore: 'pid,hostname,context',
              messageFormat: '{if context}{context}: {end}{msg}',
              singleLine: true,
            }),
          ]
        : options,
    forRoutes: [],
  };
}

/** Values a log line must never carry, wherever they appear in a logged object. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'credentials',
  '*.credentials',
  '*.apiKey',
  '*.apiToken',
  '*.secretKey',
  '*.token',
  '*.password',
  '*.serviceAccount',
  '*.accessKey',
  '*.tlsOptions',
  '*.inboundWebhookSigningKey',
];

/** An error as logs show it: its kind, message, code and stack, and none of its other fields (query parameters, details). */
export function errorSummary(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, message: error.message, ...(code !== undefined ? { code } : {}), stack: error.stack };
}

/** The process logger with Nest's framework lines moved to debug. */
export class ServiceLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    if (FRAMEWORK_CONTEXTS.has(params[params.length - 1] as string)) this.inner.debug?.(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...params);
  }
}

/** A line when a shutdown starts (what it waits for) and one when it is done. */
@Injectable()
export class LifecycleLogger implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new NestLogger('Lifecycle');

  beforeApplicationShutdown(signal?: string): void {
    this.logger.log(`Shutting down${signal ? ` on ${signal}` : ''}: finishing running jobs, then closing connections`);
  }

  onApplicationShutdown(): void {
    this.logger.log('Stopped');
  }
}
