import { randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { addressOf, isBase64 } from './email-test-kit';

/** Messages Postmark takes in one `/email/batch` request. */
const MAX_BATCH = 500;

const BAD_TOKEN = 'The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token.';

/**
 * Postmark: `POST /email`, `POST /email/batch` (an array of up to 500 messages, answered 200 with one
 * result per message: its MessageID, or its own ErrorCode) and `GET /server`, `X-Postmark-Server-Token`,
 * errors as `{ErrorCode, Message}`. A batch's refused messages are kept in `refusals` too.
 */
export class PostmarkFake extends VendorFake {
  constructor(readonly serverToken = 'pm-server-token') {
    super();
  }

  /** Recipients Postmark has marked inactive: a message to one answers ErrorCode 406. */
  readonly inactive = new Set<string>();

  override reset(): void {
    super.reset();
    this.inactive.clear();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.header('x-postmark-server-token') === this.serverToken, 401, 'bad server token', { ErrorCode: 10, Message: BAD_TOKEN });
    if (request.method === 'GET' && request.path === '/server')
      return { status: 200, body: { ID: 1, Name: 'Transactional', ApiTokens: ['…'], DeliveryType: 'Live' } };
    const batch = request.path === '/email/batch';
    this.expect(request.method === 'POST' && (batch || request.path === '/email'), 404, `no route ${request.method} ${request.path}`);
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON', { ErrorCode: 409, Message: 'JSON request required' });
    let body: any;
    try {
      body = request.json();
    } catch {
      this.refuse(422, 'invalid JSON', { ErrorCode: 402, Message: 'Invalid JSON' });
    }
    if (!batch) {
      const problem = this.problemOf(body);
      if (problem) this.refuse(422, problem.Message, problem);
      return this.deliver(request, { status: 200, body: sent(body) });
    }
    // A batch: an array of up to 500 messages, each answered on its own (200 even when some are refused).
    this.expect(Array.isArray(body), 422, 'batch not an array', { ErrorCode: 402, Message: 'Invalid JSON: a batch is an array of messages' });
    this.expect(body.length >= 1 && body.length <= MAX_BATCH, 422, `batch of ${body.length}`, {
      ErrorCode: 300,
      Message: `Batch size must be between 1 and ${MAX_BATCH} messages.`,
    });
    const results = body.map((message: any) => {
      const problem = this.problemOf(message);
      if (problem) this.refusals.push({ request, status: 200, reason: `batch message: ${problem.Message}` });
      return problem ?? sent(message);
    });
    return this.deliver(request, { status: 200, body: results });
  }

  /** What Postmark's validation refuses in one message (ErrorCode 300), or an inactive recipient (406). */
  private problemOf(message: any): { ErrorCode: number; Message: string } | undefined {
    const invalid = (reason: string) => ({ ErrorCode: 300, Message: reason });
    if (!message || typeof message !== 'object' || Array.isArray(message)) return invalid('A message must be a JSON object.');
    if (!addressOf(message.From)) return invalid(`Invalid 'From' address: '${message.From}'.`);
    if (typeof message.To !== 'string' || !message.To.split(',').every((address: string) => addressOf(address)))
      return invalid(`Error parsing 'To': Illegal email address '${message.To}'.`);
    for (const field of ['Cc', 'Bcc']) {
      if (
        message[field] !== undefined &&
        !String(message[field])
          .split(',')
          .every((address) => addressOf(address))
      )
        return invalid(`Error parsing '${field}': Illegal email address.`);
    }
    if (!message.HtmlBody && !message.TextBody) return invalid('Provide either email TextBody or HtmlBody or both.');
    for (const attachment of message.Attachments ?? []) {
      if (!attachment.Name || !isBase64(attachment.Content) || !attachment.ContentType)
        return invalid('Attachments must have Name, base64 Content and ContentType.');
    }
    if (message.Metadata !== undefined && (typeof message.Metadata !== 'object' || Object.values(message.Metadata).some((value) => typeof value !== 'string')))
      return invalid('Metadata values must be strings.');
    const inactive = message.To.split(',')
      .map((address: string) => addressOf(address))
      .filter((address: string) => this.inactive.has(address));
    if (inactive.length)
      return {
        ErrorCode: 406,
        Message: `You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ${inactive.join(', ')}.`,
      };
    return undefined;
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

function sent(message: { To: string }) {
  return { To: message.To, SubmittedAt: new Date().toISOString(), MessageID: randomUUID(), ErrorCode: 0, Message: 'OK' };
}
