import { createHash, randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { EMAIL_ADDRESS, isBase64 } from './email-test-kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Brevo (Sendinblue): `POST /v3/smtp/email` and `GET /v3/account`, header `api-key`, errors as
 * `{code, message}`. A body `headers.idempotencyKey` (a UUID) is honoured: the same key answers
 * the first send's messageId without sending again.
 */
export class SendinblueFake extends VendorFake {
  private readonly idempotency = new Map<string, { digest: string; messageId: string }>();

  constructor(readonly apiKey = 'xkeysib-test') {
    super();
  }

  override reset(): void {
    super.reset();
    this.idempotency.clear();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.header('api-key') === this.apiKey, 401, 'bad api-key', { code: 'unauthorized', message: 'Key not found' });
    if (request.method === 'GET' && request.path === '/v3/account') {
      return { status: 200, body: { email: 'owner@example.com', companyName: 'Example', plan: [{ type: 'free', credits: 300, creditsType: 'sendLimit' }] } };
    }
    this.expect(request.method === 'POST' && request.path === '/v3/smtp/email', 404, `no route ${request.method} ${request.path}`, {
      code: 'not_found',
      message: 'Invalid route',
    });
    const body = request.json();
    const invalid = (message: string) => this.refuse(400, message, { code: 'invalid_parameter', message });
    if (!body.sender || !EMAIL_ADDRESS.test(body.sender.email ?? '')) invalid('valid sender email required');
    if (!Array.isArray(body.to) || body.to.length === 0) invalid('to is missing');
    for (const field of ['to', 'cc', 'bcc']) {
      for (const recipient of body[field] ?? []) if (!EMAIL_ADDRESS.test(recipient.email ?? '')) invalid(`email is not valid in ${field}`);
    }
    if (body.replyTo !== undefined && !EMAIL_ADDRESS.test(body.replyTo.email ?? '')) invalid('email is not valid in replyTo');
    if (typeof body.subject !== 'string' || body.subject === '') invalid('subject is missing');
    if (!body.htmlContent && !body.textContent) invalid('htmlContent or textContent is missing');
    for (const attachment of body.attachment ?? [])
      if (!attachment.name || !isBase64(attachment.content)) invalid('attachment content must be base64 with a name');
    const key = body.headers?.idempotencyKey;
    if (key !== undefined && !UUID.test(key)) invalid('idempotencyKey must be a UUID');
    const digest = createHash('sha256').update(request.body).digest('hex');
    const earlier = key ? this.idempotency.get(key) : undefined;
    if (earlier) {
      this.expect(earlier.digest === digest, 400, 'idempotency key reused with another body', {
        code: 'duplicate_request',
        message: 'Request with the same idempotency key is already processed',
      });
      return { status: 201, body: { messageId: earlier.messageId } };
    }
    const messageId = `<${randomUUID()}@smtp-relay.mailin.fr>`;
    const reply = this.deliver(request, { status: 201, body: { messageId } });
    if (reply.status === 201 && key) this.idempotency.set(key, { digest, messageId });
    return reply;
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          status: 429,
          headers: { 'x-sib-ratelimit-limit': '1000', 'x-sib-ratelimit-remaining': '0', 'x-sib-ratelimit-reset': '2' },
          body: { code: 'too_many_requests', message: 'The expected rate limit is exceeded.' },
        };
      case 'unavailable':
        return { status: 503, body: { code: 'internal_error', message: 'Service unavailable' } };
      case 'auth':
        return { status: 401, body: { code: 'unauthorized', message: 'Key not found' } };
      case 'invalid_recipient':
        return { status: 400, body: { code: 'invalid_parameter', message: 'email is not valid in to' } };
      case 'permanent':
        return { status: 400, body: { code: 'invalid_parameter', message: 'Sender is invalid / inactive' } };
    }
  }
}
