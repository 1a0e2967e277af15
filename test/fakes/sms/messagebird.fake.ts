import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { BARE_MSISDN, hexId } from './sms-fake-kit';

const birdError = (code: number | undefined, description: string, parameter: string | null = null) => ({
  errors: [{ ...(code === undefined ? {} : { code }), description, parameter }],
});

/**
 * MessageBird's (Bird's legacy) REST API: `POST /messages` (JSON `{originator, recipients[], body}`,
 * `Authorization: AccessKey <key>`) answering 201 `{id, createdDatetime, …}`, and `GET /balance`.
 * Errors are `{errors: [{code, description, parameter}]}`.
 */
export class MessagebirdFake extends VendorFake {
  constructor(readonly accessKey = 'live_fakeMessageBirdKey01') {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(hasScheme(request, 'AccessKey', this.accessKey), 401, 'bad access key', birdError(2, 'Request not allowed (incorrect access_key)'));
    if (request.method === 'GET' && request.path === '/balance') return { status: 200, body: { payment: 'prepaid', type: 'credits', amount: 42 } };
    this.expect(
      request.method === 'POST' && request.path === '/messages',
      404,
      `no route ${request.method} ${request.path}`,
      birdError(20, 'message not found'),
    );
    this.expect(request.header('content-type')?.startsWith('application/json'), 422, 'not JSON', birdError(21, 'Bad request'));
    const body = request.json();
    this.expect(body.originator, 422, 'no originator', birdError(9, 'no (correct) originator given', 'originator'));
    this.expect(body.body, 422, 'no body', birdError(9, 'no message body given', 'body'));
    const recipients: unknown[] = Array.isArray(body.recipients) ? body.recipients : [];
    this.expect(
      recipients.length > 0 && recipients.every((r) => BARE_MSISDN.test(String(r))),
      422,
      'bad recipients',
      birdError(9, 'no (correct) recipients found', 'recipients'),
    );
    const createdDatetime = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
    return this.deliver(request, {
      status: 201,
      body: {
        id: hexId(32),
        href: 'https://rest.messagebird.com/messages/…',
        direction: 'mt',
        type: 'sms',
        originator: body.originator,
        body: body.body,
        reference: body.reference ?? null,
        createdDatetime,
        recipients: {
          totalCount: recipients.length,
          totalSentCount: recipients.length,
          items: recipients.map((recipient) => ({ recipient: Number(recipient), status: 'sent', statusDatetime: createdDatetime })),
        },
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '1' }, body: birdError(undefined, 'Too many requests') };
      case 'unavailable':
        return { status: 500, body: birdError(99, 'Internal error') };
      case 'auth':
        return { status: 401, body: birdError(2, 'Request not allowed (incorrect access_key)') };
      case 'invalid_recipient':
        return { status: 422, body: birdError(9, 'no (correct) recipients found', 'recipients') };
      case 'permanent':
        return { status: 422, body: birdError(25, 'Not enough balance') };
    }
  }
}
