import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadConfig } from '@app/config';

/**
 * `node main.js` runs the embedded mode (one process); `--mode=api` runs only the HTTP side of
 * production mode, which needs DATABASE_URL and REDIS_URL so workers elsewhere can share the work.
 */
async function main() {
  const config = loadConfig();
  const apiOnly = process.argv.includes('--mode=api');
  if (apiOnly && !config.store.url) throw new ConfigError('DATABASE_URL', 'is required by start:api (production mode)');
  if (apiOnly && !config.redisUrl) throw new ConfigError('REDIS_URL', 'is required by start:api (production mode)');
  if (config.metricsPort && config.metricsPort === config.port)
    throw new ConfigError('METRICS_PORT', 'must differ from PORT (it moves the metrics off the API port)');
  // Loaded once the configuration is known good: loading the application takes seconds of CPU, and a
  // bad setting should stop the process at once.
  const [{ NestFactory }, { Logger }, { useLeanAsyncResourceBind }, { AppModule }, { configureApp, createHttpAdapter }] = await Promise.all([
    import('@nestjs/core'),
    import('nestjs-pino'),
    import('@app/bootstrap'),
    import('./app.module'),
    import('./configure-app'),
  ]);
  useLeanAsyncResourceBind(); // before the first request: Fastify and Nest bind per request
  // A failure while starting (DATA_DIR in use, database unreachable) reaches the catch below and is printed once there.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ config, runWorker: !apiOnly }), createHttpAdapter(config), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
    autoFlushLogs: false,
  });
  await configureApp(app, config);
  await app.listen(config.port, config.host);
  app.flushLogs();
  const mode = apiOnly ? 'api' : 'embedded';
  app.get(Logger).log(`Listening on ${config.host}:${config.port} (${mode} mode, ${config.store.kind} store); Swagger UI at /api`, 'Main');
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 78 : 1);
});
