import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake, text, token } from './chat-fake-kit';

/**
 * Ryver incoming webhook (chat format): `POST /application/webhook/{id}` with JSON `{content}`
 * (a non-empty string); answers 200 with no id.
 */
export class RyverFake extends ChatHookFake {
  constructor() {
    super(`/application/webhook/${token(20)}`);
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.path === this.hookPath, 404, 'unknown webhook', { error: { message: 'Webhook not found.' } });
    this.expect(request.method === 'POST', 405, `method ${request.method}`, { error: { message: 'Method not allowed.' } });
    this.expect(this.isJson(request), 400, 'not JSON', { error: { message: 'The request body could not be parsed.' } });
    const body = request.json();
    this.expect(typeof body.content === 'string' && body.content !== '', 400, 'no content', { error: { message: 'content is required.' } });
    return this.deliver(request, text(200, ''));
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '5' }, body: { error: { message: 'Too many requests.' } } };
      case 'unavailable':
        return text(502, 'Bad Gateway');
      case 'permanent':
        return { status: 400, body: { error: { message: 'content is too long.' } } };
      case 'invalid_recipient':
        return { status: 404, body: { error: { message: 'Webhook not found.' } } };
      case 'auth':
        return { status: 403, body: { error: { message: 'The webhook has been disabled.' } } };
    }
  }
}
