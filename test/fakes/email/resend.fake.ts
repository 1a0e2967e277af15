import { createHash, randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { addressOf, isBase64 } from './email-test-kit';

const error = (statusCode: number, name: string, message: string) => ({ statusCode, name, message });

/**
 * Resend: `POST /emails` and `GET /domains`, Bearer key, errors as `{statusCode, name, message}`.
 * Honours `Idempotency-Key` as Resend does: the same key and body answer the first send's id
 * without sending again; the same key with another body is a 409.
 */
export class ResendFake extends VendorFake {
  private readonly idempotency = new Map<string, { digest: string; id: string }>();

  constructor(
    readonly apiKey = 're_test_full_access',
    /** A valid key restricted to sending (refused on everything but POST /emails). */
    readonly sendingOnlyKey = 're_test_sending_only',
  ) {
    super();
  }

  override reset(): void {
    super.reset();
    this.idempotency.clear();
  }

  protected handle(request: FakeRequest): FakeReply {
    const authorization = request.header('authorization');
    this.expect(authorization, 401, 'no bearer key', error(401, 'missing_api_key', 'Missing API key in the authorization header.'));
    const key = authorization === `Bearer ${this.apiKey}` ? 'full' : authorization === `Bearer ${this.sendingOnlyKey}` ? 'sending' : undefined;
    this.expect(key, 403, 'bad bearer key', error(403, 'invalid_api_key', 'API key is invalid'));
    if (request.method === 'GET' && request.path === '/domains') {
      this.expect(key === 'full', 401, 'sending-only key', error(401, 'restricted_api_key', 'This API key is restricted to only send emails'));
      return { status: 200, body: { data: [{ id: randomUUID(), name: 'example.com', status: 'verified', region: 'us-east-1' }] } };
    }
    this.expect(
      request.method === 'POST' && request.path === '/emails',
      404,
      `no route ${request.method} ${request.path}`,
      error(404, 'not_found', 'The requested endpoint does not exist.'),
    );
    const body = request.json();
    const invalid = (message: string) => this.refuse(422, message, error(422, 'validation_error', message));
    if (!addressOf(body.from)) invalid('Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.');
    for (const field of ['to', 'cc', 'bcc']) {
      const value = body[field];
      if (field === 'to' && value === undefined) invalid('Missing `to` field.');
      if (value !== undefined && !(Array.isArray(value) ? value : [value]).every((address: unknown) => addressOf(address))) {
        invalid(`Invalid \`${field}\` field. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`);
      }
    }
    if (typeof body.subject !== 'string') invalid('Missing `subject` field.');
    for (const attachment of body.attachments ?? []) if (!attachment.filename || !isBase64(attachment.content)) invalid('Invalid `attachments` field.');
    for (const tag of body.tags ?? []) {
      if (!/^[A-Za-z0-9_-]+$/.test(tag.name ?? '') || !/^[A-Za-z0-9_-]+$/.test(tag.value ?? ''))
        invalid('Tags should only contain ASCII letters (a–z, A–Z), numbers (0–9), underscores (_), or dashes (-).');
    }
    const idempotencyKey = request.header('idempotency-key');
    const digest = createHash('sha256').update(request.body).digest('hex');
    const earlier = idempotencyKey ? this.idempotency.get(idempotencyKey) : undefined;
    if (earlier) {
      this.expect(
        earlier.digest === digest,
        409,
        'idempotency key reused with another body',
        error(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.'),
      );
      return { status: 200, body: { id: earlier.id } };
    }
    const id = randomUUID();
    const reply = this.deliver(request, { status: 200, body: { id } });
    if (reply.status === 200 && idempotencyKey) this.idempotency.set(idempotencyKey, { digest, id });
    return reply;
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          status: 429,
          headers: { 'retry-after': '1', 'ratelimit-limit': '2', 'ratelimit-remaining': '0' },
          body: error(429, 'rate_limit_exceeded', 'Too many requests. You can only make 2 requests per second.'),
        };
      case 'unavailable':
        return { status: 500, body: error(500, 'application_error', 'An unexpected error occurred.') };
      case 'auth':
        return { status: 403, body: error(403, 'invalid_api_key', 'API key is invalid') };
      case 'invalid_recipient':
        return {
          status: 422,
          body: error(
            422,
            'validation_error',
            'Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
          ),
        };
      case 'permanent':
        return { status: 403, body: error(403, 'validation_error', 'You can only send testing emails to your own email address (owner@example.com).') };
    }
  }
}
