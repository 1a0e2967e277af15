import { randomUUID } from 'node:crypto';
import { hasBodyHmac } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake } from './chat-fake-kit';

/**
 * A tenant's receiver for `chat-webhook`: `POST {hook}` with JSON `{content, webhookUrl, channel?,
 * phoneNumber?, …customData}`, an `Idempotency-Key`, and, when built with a secret, a valid
 * `X-Novu-Signature` (hex HMAC-SHA256 of the body). Answers `{id}`; remembers idempotency keys so a
 * redelivery is answered with the first id and not counted twice.
 */
export class ChatWebhookFake extends ChatHookFake {
  private readonly seen = new Map<string, string>();

  constructor(readonly secretKey?: string) {
    super('/novu/chat');
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.path === this.hookPath, 404, `no route ${request.path}`);
    this.expect(request.method === 'POST', 405, `method ${request.method}`);
    if (this.secretKey)
      this.expect(hasBodyHmac(request, 'x-novu-signature', this.secretKey), 401, 'bad or missing X-Novu-Signature', { error: 'invalid signature' });
    this.expect(this.isJson(request), 400, 'not JSON');
    const body = request.json();
    this.expect(typeof body.content === 'string', 400, 'no content');
    const key = request.header('idempotency-key');
    this.expect(key, 400, 'no Idempotency-Key');
    const earlier = this.seen.get(key!);
    if (earlier) return { status: 200, body: { id: earlier, duplicate: true } };
    const id = randomUUID();
    const reply = this.deliver(request, { status: 200, body: { id } });
    if (reply.status === 200) this.seen.set(key!, id);
    return reply;
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '10' }, body: { error: 'slow down' } };
      case 'unavailable':
        return { status: 503, body: { error: 'unavailable' } };
      case 'permanent':
        return { status: 422, body: { error: 'unprocessable' } };
      case 'invalid_recipient':
        return { status: 410, body: { error: 'gone' } };
      case 'auth':
        return { status: 401, body: { error: 'invalid signature' } };
    }
  }

  override reset(): void {
    super.reset();
    this.seen.clear();
  }
}
