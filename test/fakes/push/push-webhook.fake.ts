import { randomUUID } from 'node:crypto';
import { hasBodyHmac } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

/**
 * A tenant's push webhook receiver: accepts `POST {path}` only when X-Novu-Signature is the hex
 * HMAC-SHA256 of the raw body under `secretKey`, and the body is Novu's push webhook shape
 * (`target[]`, `title`, `content`, `overrides`, `payload`). Answers `{id}`.
 */
export class PushWebhookFake extends VendorFake {
  constructor(
    readonly secretKey = 'push-webhook-secret',
    readonly path = '/push',
  ) {
    super();
  }

  /** The integration's webhookUrl. */
  get webhookUrl(): string {
    return `${this.origin}${this.path}`;
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.method === 'POST' && request.path === this.path, 404, `no route ${request.method} ${request.path}`);
    this.expect(hasBodyHmac(request, 'x-novu-signature', this.secretKey), 401, 'bad X-Novu-Signature');
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON');
    const body = request.json();
    this.expect(
      Array.isArray(body.target) && body.target.length > 0 && body.target.every((token: unknown) => typeof token === 'string'),
      400,
      'target must list device tokens',
    );
    this.expect(typeof body.title === 'string' && typeof body.content === 'string', 400, 'title and content are required');
    this.expect(typeof body.payload === 'object' && body.payload !== null && typeof body.overrides === 'object', 400, 'payload and overrides are required');
    return this.deliver(request, { status: 200, body: { id: randomUUID() } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '2' }, body: { error: 'slow down' } };
      case 'unavailable':
        return { status: 503, body: { error: 'unavailable' } };
      case 'permanent':
        return { status: 400, body: { error: 'bad request' } };
      case 'invalid_recipient':
        return { status: 410, body: { error: 'device gone' } };
      case 'auth':
        return { status: 401, body: { error: 'bad signature' } };
    }
  }
}
