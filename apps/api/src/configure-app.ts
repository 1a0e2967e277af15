import { INestApplication, VersioningType } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '@app/config';
import { setupSwagger } from './docs/swagger';
import { toErrorResponse } from './http/error-response';
import { createValidationPipe } from './http/validation';

/** Everything the HTTP app needs beyond its modules; shared by main and the tests. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.useLogger(app.get(Logger));
  express.disable('x-powered-by');
  express.use(json({ limit: config.bodyLimitBytes, type: ['application/json', 'application/*+json'] }));
  // Body-parser failures (bad JSON, too large) get the same JSON error body as everything else.
  express.use((error: unknown, request: Request, response: Response, next: NextFunction) => {
    if (!error) return next();
    const { statusCode, body } = toErrorResponse(error, request.originalUrl);
    response.status(statusCode).json(body);
  });
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupSwagger(app);
}
