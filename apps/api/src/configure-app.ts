import { INestApplication, VersioningType } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import cors from 'cors';
import { json, raw } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import { ServiceLogger } from '@app/bootstrap';
import { AppConfig } from '@app/config';
import { PromMetrics } from '@app/metrics';
import { DomainError, UnprocessableError, findUnstorableString } from '@app/kernel';
import { setupSwagger } from './docs/swagger';
import { INBOUND_WEBHOOKS_PATH } from './activity/inbound-webhooks.controller';
import { toErrorResponse } from './http/error-response';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { createValidationPipe } from './http/validation';

/** PostgreSQL text and jsonb cannot hold U+0000: input carrying it is refused up front, not failed in the store. */
export class NulCharacterError extends DomainError {
  constructor(where: 'path or query') {
    super('nul_character', `The request ${where} contains the NUL character (U+0000), which no field may hold`, 'invalid');
  }
}

/** A body sent as anything but JSON would reach validation empty and fail on "missing" fields: say what is wrong instead. */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(contentType: string | undefined) {
    super(
      'unsupported_media_type',
      `The request body must be JSON sent with Content-Type: application/json${contentType ? ` (got "${contentType.slice(0, 100)}")` : ' (the header is missing)'}`,
      'unsupported_media_type',
    );
  }
}

/** Vendors' event webhooks: the raw bytes are kept (signatures cover them), whatever the content type. */
function isInboundWebhook(request: Request): boolean {
  return request.method === 'POST' && request.path.startsWith(INBOUND_WEBHOOKS_PATH);
}

const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

function refuseNonJsonBody(request: Request, _response: Response, next: NextFunction): void {
  if (isInboundWebhook(request)) return next(); // vendors send form bodies and text/plain (SNS); read raw below
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  const contentType = request.headers['content-type'];
  next(hasBody && !JSON_CONTENT_TYPE.test(contentType ?? '') ? new UnsupportedMediaTypeError(contentType) : undefined);
}

function refuseNulInUrl(request: Request, _response: Response, next: NextFunction): void {
  next(/%00/i.test(request.url) ? new NulCharacterError('path or query') : undefined);
}

// JSON can only carry NUL or a lone surrogate as an escape (raw bytes would be invalid UTF-8, read
// as U+FFFD): look for the escapes first, and walk the parsed body only when one is there.
const SUSPECT_ESCAPE = /\\u(0000|[dD][89a-fA-F])/;

/** A body string no store can hold (NUL, lone surrogate): 422 naming the field, as a validation error. */
export class UnstorableStringError extends UnprocessableError {
  constructor(path: string, problem: string) {
    const field = path || 'body';
    super('invalid_string', 'Validation Error', { errors: { [field]: { messages: [`${field} ${problem}`], value: '[not shown]' } } });
  }
}

/** Deeper bodies would overflow the stack of the validation (class-transformer recurses); no real payload nests this deep. */
export const MAX_BODY_DEPTH = 64;

export class BodyTooDeepError extends DomainError {
  constructor() {
    super('body_too_deep', `The request body nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels`, 'invalid');
  }
}

/** Nesting depth of a JSON text (brackets outside strings), stopping as soon as it passes `limit`. */
function exceedsDepth(body: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: skip the escaped character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > limit) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

function refuseUnstorableJson(_request: Request, _response: Response, body: Buffer): void {
  if (exceedsDepth(body, MAX_BODY_DEPTH)) throw new BodyTooDeepError();
  if (!body.includes('\\u')) return;
  const text = body.toString('utf8');
  if (!SUSPECT_ESCAPE.test(text)) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return; // body-parser reports the syntax error
  }
  const found = findUnstorableString(parsed);
  if (found) throw new UnstorableStringError(found.path, found.problem);
}

export const INBOX_CORS: cors.CorsOptions = {
  origin: true,
  methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
  allowedHeaders: [
    'Authorization',
    'Content-Type',
    'Novu-API-Version',
    'Novu-Client-Version',
    'Novu-Application-Identifier',
    'Novu-Environment-Id',
    'Novu-User-Agent',
  ],
  maxAge: 600,
};

/** Everything the HTTP app needs beyond its modules; shared by main and the tests. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.useLogger(new ServiceLogger(app.get(Logger)));
  express.disable('x-powered-by');
  express.use(httpMetrics(app.get(PromMetrics)));
  // The Inbox is called from customers' pages on any origin; a subscriber token (a header, never a
  // cookie) authenticates, so any origin may call /v1/inbox (API-key routes send no CORS headers).
  express.use('/v1/inbox', cors(INBOX_CORS));
  express.use(refuseNulInUrl);
  express.use(refuseNonJsonBody);
  // Before the JSON parser: a body read here is a Buffer in request.body, and the JSON parser skips it.
  express.use(INBOUND_WEBHOOKS_PATH, raw({ limit: config.inboundWebhookBodyLimitBytes, type: () => true }));
  express.use(json({ limit: config.bodyLimitBytes, type: ['application/json', 'application/*+json'], verify: refuseUnstorableJson }));
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
