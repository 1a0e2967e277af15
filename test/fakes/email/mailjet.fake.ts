import { randomUUID } from 'node:crypto';
import { hasBasic } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { EMAIL_ADDRESS, isBase64 } from './email-test-kit';

const AUTH_FAILURE = {
  ErrorIdentifier: '06df1144-c6f3-4ca7-8885-7ec5d4344113',
  StatusCode: 401,
  ErrorMessage:
    'API key authentication/authorization failure. You may be unauthorized to access the API or your API key may be expired. Visit API keys management section to check your keys.',
};

interface MessageError {
  ErrorCode: string;
  StatusCode: number;
  ErrorMessage: string;
  ErrorRelatedTo: string[];
}

const messageError = (error: MessageError) => ({ Status: 'error', Errors: [{ ErrorIdentifier: randomUUID(), ...error }] });

/**
 * Mailjet: `POST /v3.1/send` and `GET /v3/REST/sender`, Basic `apiKey:secretKey`. Answers with
 * per-message `Status`; MessageIDs are 19-digit numbers beyond JavaScript's safe integers, as
 * Mailjet's are (written into the JSON text verbatim).
 */
export class MailjetFake extends VendorFake {
  /** The MessageID of the last accepted send, as Mailjet wrote it. */
  lastMessageId?: string;

  constructor(
    readonly apiKey = 'mj-public-key',
    readonly secretKey = 'mj-secret-key',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(hasBasic(request, this.apiKey, this.secretKey), 401, 'bad basic login', AUTH_FAILURE);
    if (request.method === 'GET' && request.path === '/v3/REST/sender') {
      return { status: 200, body: { Count: 1, Data: [{ Email: 'no-reply@example.com', ID: 1, Status: 'Active' }], Total: 1 } };
    }
    this.expect(request.method === 'POST' && request.path === '/v3.1/send', 404, `no route ${request.method} ${request.path}`, {
      StatusCode: 404,
      ErrorMessage: 'Not found',
    });
    const body = request.json();
    this.expect(Array.isArray(body.Messages) && body.Messages.length >= 1 && body.Messages.length <= 50, 400, 'no Messages', {
      StatusCode: 400,
      ErrorMessage: 'Messages must be an array of 1 to 50 items',
    });
    const results = body.Messages.map((message: any) => {
      const invalid = (field: string, value: unknown) =>
        messageError({ ErrorCode: 'mj-0013', StatusCode: 400, ErrorMessage: `"${String(value)}" is an invalid email address.`, ErrorRelatedTo: [field] });
      if (!EMAIL_ADDRESS.test(message.From?.Email ?? '')) return invalid('From.Email', message.From?.Email);
      if (!Array.isArray(message.To) || message.To.length === 0)
        return messageError({ ErrorCode: 'mj-0003', StatusCode: 400, ErrorMessage: 'Missing mandatory property.', ErrorRelatedTo: ['To'] });
      for (const field of ['To', 'Cc', 'Bcc']) {
        const bad = (message[field] ?? []).findIndex((recipient: any) => !EMAIL_ADDRESS.test(recipient.Email ?? ''));
        if (bad >= 0) return invalid(`${field}[${bad}].Email`, message[field][bad].Email);
      }
      if (!message.TextPart && !message.HTMLPart)
        return messageError({ ErrorCode: 'mj-0003', StatusCode: 400, ErrorMessage: 'Missing mandatory property.', ErrorRelatedTo: ['TextPart', 'HTMLPart'] });
      for (const attachment of [...(message.Attachments ?? []), ...(message.InlinedAttachments ?? [])]) {
        if (!attachment.Filename || !attachment.ContentType || !isBase64(attachment.Base64Content)) {
          return messageError({ ErrorCode: 'mj-0006', StatusCode: 400, ErrorMessage: 'Attachment is not valid.', ErrorRelatedTo: ['Attachments'] });
        }
      }
      return undefined;
    });
    const failed = results.find(Boolean);
    if (failed) this.refuse(400, failed.Errors[0].ErrorMessage, { Messages: results.map((result: unknown) => result ?? { Status: 'success' }) });
    const accepted: FakeReply = { status: 200 };
    const reply = this.deliver(request, accepted);
    if (reply !== accepted) return reply; // a scripted failure
    // Built as text: the ids must not pass through a JavaScript number.
    const recipients = (list: any[] | undefined) =>
      (list ?? []).map((recipient) => {
        this.lastMessageId = `11529215${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
        return `{"Email":${JSON.stringify(recipient.Email)},"MessageUUID":"${randomUUID()}","MessageID":${this.lastMessageId},"MessageHref":"https://api.mailjet.com/v3/REST/message/${this.lastMessageId}"}`;
      });
    const messages = body.Messages.map(
      (message: any) =>
        `{"Status":"success","CustomID":${JSON.stringify(message.CustomID ?? '')},"To":[${recipients(message.To).join(',')}],"Cc":[${recipients(message.Cc).join(',')}],"Bcc":[${recipients(message.Bcc).join(',')}]}`,
    );
    return { status: 200, headers: { 'content-type': 'application/json' }, body: `{"Messages":[${messages.join(',')}]}` };
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '2' }, body: { ErrorIdentifier: randomUUID(), StatusCode: 429, ErrorMessage: 'Too many requests' } };
      case 'unavailable':
        return { status: 503, body: { ErrorIdentifier: randomUUID(), StatusCode: 503, ErrorMessage: 'Service Unavailable' } };
      case 'auth':
        return { status: 401, body: AUTH_FAILURE };
      case 'invalid_recipient':
        return {
          status: 400,
          body: {
            Messages: [
              messageError({
                ErrorCode: 'mj-0013',
                StatusCode: 400,
                ErrorMessage: '"ada@example" is an invalid email address.',
                ErrorRelatedTo: ['To[0].Email'],
              }),
            ],
          },
        };
      case 'permanent':
        // The request went through; the message itself was refused.
        return {
          status: 200,
          body: {
            Messages: [
              messageError({
                ErrorCode: 'send-0008',
                StatusCode: 403,
                ErrorMessage: '"no-reply@example.com" is not an authorized sender email address for your account.',
                ErrorRelatedTo: ['From'],
              }),
            ],
          },
        };
    }
  }
}
