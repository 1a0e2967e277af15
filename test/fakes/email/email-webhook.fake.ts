import { randomUUID } from 'node:crypto';
import { hasBodyHmac } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { EMAIL_ADDRESS, isBase64 } from './email-test-kit';

/**
 * A tenant's email webhook receiver: `POST /hooks/email`, JSON, X-Novu-Signature checked by
 * recomputing the HMAC over the raw body, an Idempotency-Key required. Answers `{id}`.
 */
export class EmailWebhookFake extends VendorFake {
  readonly path = '/hooks/email';

  constructor(readonly secretKey = 'webhook-secret') {
    super();
  }

  /** The integration's webhookUrl. */
  get url(): string {
    return `${this.origin}${this.path}`;
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.method === 'POST' && request.path === this.path, 404, `no route ${request.method} ${request.path}`);
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON');
    this.expect(hasBodyHmac(request, 'x-novu-signature', this.secretKey), 401, 'bad signature', { error: 'invalid signature' });
    this.expect(request.header('idempotency-key'), 400, 'no idempotency key');
    const body = request.json();
    const invalid = (reason: string) => this.refuse(422, reason, { error: reason });
    if (!Array.isArray(body.to) || body.to.length === 0 || !body.to.every((address: string) => EMAIL_ADDRESS.test(address)))
      invalid('to must be a list of addresses');
    if (!EMAIL_ADDRESS.test(body.from ?? '')) invalid('from must be an address');
    if (typeof body.subject !== 'string' || typeof body.html !== 'string') invalid('subject and html are required');
    for (const attachment of body.attachments ?? []) if (!attachment.name || !isBase64(attachment.file)) invalid('attachments need a name and a base64 file');
    return this.deliver(request, { status: 200, body: { id: `hook-${randomUUID()}` } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '5' }, body: { error: 'slow down' } };
      case 'unavailable':
        return { status: 503, body: { error: 'receiver unavailable' } };
      case 'auth':
        return { status: 401, body: { error: 'invalid signature' } };
      case 'invalid_recipient':
        return { status: 410, body: { error: 'this endpoint is gone' } };
      case 'permanent':
        return { status: 422, body: { error: 'the receiver refused the email' } };
    }
  }
}
