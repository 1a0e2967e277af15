import { randomUUID } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { E164 } from './sms-fake-kit';

const telnyxError = (code: string, title: string, detail: string, pointer?: string) => ({
  errors: [{ code, title, detail, ...(pointer ? { source: { pointer } } : {}) }],
});
const UNAUTHENTICATED = telnyxError('10009', 'Authentication failed', 'The API key looks malformed. Check that you copied it correctly.');

/**
 * Telnyx v2 Messaging: `POST /v2/messages` (JSON `{from, to, text, messaging_profile_id}`, Bearer
 * key) answering `{data: {id, received_at, …}}`, and `GET /v2/messaging_profiles/{id}`. Errors
 * are `{errors: [{code, title, detail, source}]}`.
 */
export class TelnyxFake extends VendorFake {
  constructor(
    readonly apiKey = 'KEY0123456789ABCDEF_fake',
    readonly messagingProfileId = '40017f8e-49bd-4f16-9e3d-ef103f916228',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(hasScheme(request, 'Bearer', this.apiKey), 401, 'bad bearer key', UNAUTHENTICATED);
    if (request.method === 'GET' && request.path.startsWith('/v2/messaging_profiles/')) {
      const id = request.path.slice('/v2/messaging_profiles/'.length);
      this.expect(
        id === this.messagingProfileId,
        404,
        `unknown profile ${id}`,
        telnyxError('10005', 'Resource not found', 'The requested resource or URL could not be found.'),
      );
      return { status: 200, body: { data: { record_type: 'messaging_profile', id, name: 'Test profile', enabled: true } } };
    }
    this.expect(
      request.method === 'POST' && request.path === '/v2/messages',
      404,
      `no route ${request.method} ${request.path}`,
      telnyxError('10005', 'Resource not found', 'The requested resource or URL could not be found.'),
    );
    this.expect(
      request.header('content-type')?.startsWith('application/json'),
      415,
      'not JSON',
      telnyxError('10014', 'Unsupported Media Type', 'The request failed because the server does not support the media type.'),
    );
    const body = request.json();
    this.expect(
      E164.test(body.to ?? ''),
      400,
      `bad to ${body.to}`,
      telnyxError('40310', "Invalid 'to' address", "The 'to' address should be a single valid number.", '/to'),
    );
    this.expect(
      body.from,
      400,
      'no from',
      telnyxError('40305', "Invalid 'from' address", "The 'from' address should be a valid phone number, short code or alphanumeric sender ID.", '/from'),
    );
    this.expect(body.text, 400, 'no text', telnyxError('40005', 'Invalid message body', 'The message body is empty.', '/text'));
    this.expect(
      body.messaging_profile_id === this.messagingProfileId,
      400,
      'bad profile',
      telnyxError('40311', 'Invalid messaging profile', 'The messaging profile is invalid.', '/messaging_profile_id'),
    );
    return this.deliver(request, {
      status: 200,
      body: {
        data: {
          record_type: 'message',
          id: randomUUID(),
          direction: 'outbound',
          type: 'SMS',
          text: body.text,
          from: { phone_number: body.from },
          to: [{ phone_number: body.to, status: 'queued' }],
          messaging_profile_id: body.messaging_profile_id,
          received_at: new Date().toISOString(),
        },
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          status: 429,
          headers: { 'retry-after': '2' },
          body: telnyxError('10011', 'Too many requests', 'You have exceeded the maximum number of allowed requests.'),
        };
      case 'unavailable':
        return { status: 503, body: telnyxError('10007', 'Unexpected error', 'An unexpected error occured.') };
      case 'auth':
        return { status: 401, body: UNAUTHENTICATED };
      case 'invalid_recipient':
        return { status: 400, body: telnyxError('40310', "Invalid 'to' address", "The 'to' address should be a single valid number.", '/to') };
      case 'permanent':
        return {
          status: 400,
          body: telnyxError(
            '40305',
            "Invalid 'from' address",
            "The 'from' address should be a valid phone number, short code or alphanumeric sender ID.",
            '/from',
          ),
        };
    }
  }
}
