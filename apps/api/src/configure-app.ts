import { VersioningType } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCors, { FastifyCorsOptions } from '@fastify/cors';
import fastifyEtag from '@fastify/etag';
import fastifyMultipart from '@fastify/multipart';
import fresh from 'fresh';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { ServiceLogger } from '@app/bootstrap';
import { AppConfig } from '@app/config';
import { PromMetrics } from '@app/metrics';
import { DomainError, UnprocessableError, findUnstorableString } from '@app/kernel';
import { setupSwagger } from './docs/swagger';
import { INBOUND_WEBHOOKS_PATH } from './activity/inbound-webhooks.controller';
import { recordHttpMetrics } from './metrics/http-metrics';
import { answerClientError } from './http/client-error';
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
function isInboundWebhook(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.url.startsWith(INBOUND_WEBHOOKS_PATH);
}

const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** The routes that take files: JSON files in a multipart form, read by @fastify/multipart. */
const UPLOAD_PATHS = new Set(['/v2/translations/upload', '/v2/translations/master-json/upload']);
const MULTIPART_CONTENT_TYPE = /^multipart\/form-data\s*;/i;

function isUpload(request: FastifyRequest): boolean {
  return (
    request.method === 'POST' &&
    UPLOAD_PATHS.has(request.url.split('?')[0].replace(/\/$/, '')) &&
    MULTIPART_CONTENT_TYPE.test(request.headers['content-type'] ?? '')
  );
}

/** A body larger than its route's limit, refused from its Content-Length before it is read, or as it is read. */
export class BodyTooLargeError extends DomainError {
  constructor(limit: number, length: number) {
    super('body_too_large', `Request body of ${length} bytes exceeds the limit of ${limit} bytes`, 'too_large');
  }
}

export class InvalidJsonError extends DomainError {
  constructor() {
    super('invalid_json', 'Request body is not valid JSON', 'invalid');
  }
}

/** Refusals that need only the request line and headers, made before any body byte is read. */
function refuseBeforeBody(config: AppConfig) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    if (/%00/i.test(request.url)) return done(new NulCharacterError('path or query'));
    const length = Number(request.headers['content-length'] ?? 0);
    const hasBody = length > 0 || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return done();
    if (isInboundWebhook(request)) {
      // vendors send form bodies and text/plain (SNS); kept raw by the parser
      return done(length > config.inboundWebhookBodyLimitBytes ? new BodyTooLargeError(config.inboundWebhookBodyLimitBytes, length) : undefined);
    }
    const contentType = request.headers['content-type'];
    if (!JSON_CONTENT_TYPE.test(contentType ?? '') && !isUpload(request)) return done(new UnsupportedMediaTypeError(contentType));
    done(length > config.bodyLimitBytes ? new BodyTooLargeError(config.bodyLimitBytes, length) : undefined);
  };
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

/**
 * The one body parser: inbound webhooks keep their bytes; everything else reaching it is JSON (the
 * hook above refused other types). The depth and unstorable-string checks run on the text, before
 * class-transformer would recurse into it.
 */
function parseBody(config: AppConfig) {
  return (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void): void => {
    // A chunked body has no Content-Length for the hook to check: its limit is applied here.
    const limit = isInboundWebhook(request) ? config.inboundWebhookBodyLimitBytes : config.bodyLimitBytes;
    if (body.length > limit) return done(new BodyTooLargeError(limit, body.length));
    if (isInboundWebhook(request)) return done(null, body);
    if (body.length === 0) return done(null, {});
    if (exceedsDepth(body, MAX_BODY_DEPTH)) return done(new BodyTooDeepError());
    const text = body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new InvalidJsonError());
    }
    const found = text.includes('\\u') && SUSPECT_ESCAPE.test(text) ? findUnstorableString(parsed) : undefined;
    done(found ? new UnstorableStringError(found.path, found.problem) : null, parsed);
  };
}

export const INBOX_CORS: FastifyCorsOptions = {
  strictPreflight: false,
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

/** The HTTP platform: Fastify, with limits and routing as the API's contract needs them. */
export function createHttpAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    // The parser reads up to the larger limit; each route's own limit is applied by the hook and the parser.
    bodyLimit: Math.max(config.bodyLimitBytes, config.inboundWebhookBodyLimitBytes),
    routerOptions: {
      // Identifiers are limited by validation (422 naming the limit), not by the router (414): as long as Node reads a request line.
      maxParamLength: 16 * 1024,
      ignoreTrailingSlash: true,
    },
    clientErrorHandler: answerClientError,
  });
}

/** Everything the HTTP app needs beyond its modules; shared by main and the tests. Call before init. */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app.useLogger(new ServiceLogger(app.get(Logger)));
  const fastify = app.getHttpAdapter().getInstance();
  recordHttpMetrics(fastify, app.get(PromMetrics));
  fastify.addHook('onRequest', refuseBeforeBody(config));
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, parseBody(config));
  // multipart bodies (the upload routes alone get past the hook with one): each file up to the body limit
  await app.register(fastifyMultipart, { limits: { fileSize: config.bodyLimitBytes, files: 100, fields: 20, parts: 120 } });
  // Errors from the hook and the parser reach Nest's handler, so the global filter gives them the same JSON body.
  // The Inbox is called from customers' pages on any origin; a subscriber token (a header, never a
  // cookie) authenticates, so any origin may call /v1/inbox (API-key routes send no CORS headers).
  await app.register(fastifyCors, {
    delegator: (request, callback) => callback(null, request.url?.startsWith('/v1/inbox') ? INBOX_CORS : { origin: false }),
  });
  // As Novu's Express app: a weak ETag on every response with a body, and 304 for a GET or HEAD whose
  // If-None-Match still holds (fresh: Express's own check), on a 2xx answer only.
  await app.register(fastifyEtag, { weak: true, replyWith304: false });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const conditional = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode >= 200 && reply.statusCode < 300;
    if (!conditional || !fresh(request.headers, { etag: reply.getHeader('etag'), 'last-modified': reply.getHeader('last-modified') })) return payload;
    reply.code(304);
    return '';
  });
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupSwagger(app);
}
