import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ServiceLogger, useLeanAsyncResourceBind } from '@app/bootstrap';
import { ConfigError, loadConfig } from '@app/config';
import { WorkerModule } from './worker.module';

/** Production-mode worker: consumes the queues on Redis; run as many as the load needs. */
async function main() {
  useLeanAsyncResourceBind();
  const config = loadConfig();
  if (!config.store.url) throw new ConfigError('DATABASE_URL', 'is required by start:worker (production mode)');
  if (!config.redisUrl) throw new ConfigError('REDIS_URL', 'is required by start:worker (production mode)');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot({ config }), { bufferLogs: true });
  app.useLogger(new ServiceLogger(app.get(Logger)));
  app.enableShutdownHooks();
  app
    .get(Logger)
    .log(`Worker started: consuming the fanout queue ${config.fanOutConcurrency} jobs at a time and the steps queue ${config.workerConcurrency} at a time`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 78 : 1);
});
