import { randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { addressOf, isBase64 } from './email-test-kit';

const BAD_TOKEN = 'The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token.';

/** Postmark: `POST /email` and `GET /server`, `X-Postmark-Server-Token`, errors as `{ErrorCode, Message}`. */
export class PostmarkFake extends VendorFake {
  constructor(readonly serverToken = 'pm-server-token') {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.header('x-postmark-server-token') === this.serverToken, 401, 'bad server token', { ErrorCode: 10, Message: BAD_TOKEN });
    if (request.method === 'GET' && request.path === '/server')
      return { status: 200, body: { ID: 1, Name: 'Transactional', ApiTokens: ['…'], DeliveryType: 'Live' } };
    this.expect(request.method === 'POST' && request.path === '/email', 404, `no route ${request.method} ${request.path}`);
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON', { ErrorCode: 409, Message: 'JSON request required' });
    let body: any;
    try {
      body = request.json();
    } catch {
      this.refuse(422, 'invalid JSON', { ErrorCode: 402, Message: 'Invalid JSON' });
    }
    const invalid = (reason: string) => this.refuse(422, reason, { ErrorCode: 300, Message: reason });
    if (!addressOf(body.From)) invalid(`Invalid 'From' address: '${body.From}'.`);
    if (typeof body.To !== 'string' || !body.To.split(',').every((address: string) => addressOf(address)))
      invalid(`Error parsing 'To': Illegal email address '${body.To}'.`);
    for (const field of ['Cc', 'Bcc']) {
      if (
        body[field] !== undefined &&
        !String(body[field])
          .split(',')
          .every((address) => addressOf(address))
      )
        invalid(`Error parsing '${field}': Illegal email address.`);
    }
    if (!body.HtmlBody && !body.TextBody) invalid('Provide either email TextBody or HtmlBody or both.');
    for (const attachment of body.Attachments ?? []) {
      if (!attachment.Name || !isBase64(attachment.Content) || !attachment.ContentType) invalid('Attachments must have Name, base64 Content and ContentType.');
    }
    if (body.Metadata !== undefined && (typeof body.Metadata !== 'object' || Object.values(body.Metadata).some((value) => typeof value !== 'string')))
      invalid('Metadata values must be strings.');
    return this.deliver(request, {
      status: 200,
      body: { To: body.To, SubmittedAt: new Date().toISOString(), MessageID: randomUUID(), ErrorCode: 0, Message: 'OK' },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, body: { ErrorCode: 429, Message: 'Rate limit exceeded.' } };
      case 'unavailable':
        return { status: 503, body: { ErrorCode: 100, Message: 'Maintenance' } };
      case 'auth':
        return { status: 422, body: { ErrorCode: 10, Message: BAD_TOKEN } };
      case 'invalid_recipient':
        return {
          status: 422,
          body: { ErrorCode: 406, Message: 'You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ada@example.com.' },
        };
      case 'permanent':
        return {
          status: 422,
          body: { ErrorCode: 400, Message: "The 'From' address you supplied (no-reply@example.com) is not a Sender Signature on your account." },
        };
    }
  }
}
