import { randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake, token } from './chat-fake-kit';

const streamError = (status: number, code: number, message: string) => ({
  status,
  body: { code, message, StatusCode: status, duration: '0.01ms', more_info: 'https://getstream.io/chat/docs/api_errors_response' },
});

/**
 * A GetStream webhook receiver: `POST {hook}` with JSON `{text}` and the integration's key in the
 * `X-API-KEY` header (a key in the body does not count); answers 200 with `X-Webhook-Id`.
 */
export class GetstreamFake extends ChatHookFake {
  constructor(readonly apiKey = token(12).toLowerCase()) {
    super(`/webhooks/${token(16)}`);
  }

  protected handle(request: FakeRequest): FakeReply {
    const refuse = (reply: ReturnType<typeof streamError>, reason: string) => this.refuse(reply.status, reason, reply.body);
    if (request.path !== this.hookPath) refuse(streamError(404, 16, 'webhook not found'), 'unknown hook');
    if (request.header('x-api-key') !== this.apiKey)
      refuse(streamError(401, 2, 'api_key not valid'), request.header('x-api-key') ? 'wrong X-API-KEY' : 'no X-API-KEY header');
    if (request.method !== 'POST') refuse(streamError(405, 4, 'method not allowed'), `method ${request.method}`);
    if (!this.isJson(request) || typeof request.json().text !== 'string') refuse(streamError(400, 4, 'text is a required field'), 'no text');
    if ('headers' in request.json()) refuse(streamError(400, 4, 'unknown field headers'), 'headers in the body');
    return this.deliver(request, { status: 200, headers: { 'x-webhook-id': randomUUID() }, body: { duration: '1.2ms' } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          ...streamError(429, 9, 'Too many requests, check response headers for more information.'),
          headers: { 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 2) },
        };
      case 'unavailable':
        return streamError(503, -1, 'service unavailable');
      case 'permanent':
        return streamError(400, 4, 'text is too long');
      case 'invalid_recipient':
        return streamError(404, 16, 'webhook not found');
      case 'auth':
        return streamError(401, 2, 'api_key not valid');
    }
  }
}
