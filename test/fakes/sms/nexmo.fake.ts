import { hasBasic } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { BARE_MSISDN, hexId } from './sms-fake-kit';

/** Vonage answers every send with HTTP 200; a message's status says whether it was taken. */
const refused = (status: string, errorText: string) => ({ 'message-count': '1', messages: [{ status, 'error-text': errorText }] });

/**
 * Vonage (Nexmo) SMS API: `POST /sms/json` (JSON `{to, from, text}`, `to` as bare digits,
 * Basic apiKey:secret) and `GET /account/get-balance`.
 */
export class NexmoFake extends VendorFake {
  constructor(
    readonly apiKey = 'a1b2c3d4',
    readonly apiSecret = 'vonage-api-secret',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    const authenticated = hasBasic(request, this.apiKey, this.apiSecret);
    if (request.method === 'GET' && request.path === '/account/get-balance') {
      this.expect(authenticated, 401, 'bad basic credentials', { 'error-code': '401', 'error-code-label': 'authentication failed' });
      return { status: 200, body: { value: 10.28, autoReload: false } };
    }
    this.expect(request.method === 'POST' && request.path === '/sms/json', 404, `no route ${request.method} ${request.path}`);
    this.expect(authenticated, 200, 'bad basic credentials', refused('4', 'Bad Credentials'));
    this.expect(request.header('content-type')?.startsWith('application/json'), 200, 'not JSON', refused('2', 'Missing to param'));
    const body = request.json();
    for (const field of ['to', 'from', 'text']) this.expect(body[field], 200, `missing ${field}`, refused('2', `Missing ${field} param`));
    this.expect(BARE_MSISDN.test(body.to), 200, `bad to ${body.to}`, refused('3', 'Invalid to address'));
    return this.deliver(request, {
      status: 200,
      body: {
        'message-count': '1',
        messages: [
          {
            to: body.to,
            'message-id': hexId(16).toUpperCase(),
            status: '0',
            'remaining-balance': '10.2400',
            'message-price': '0.0400',
            network: '23410',
            ...(body['client-ref'] ? { 'client-ref': body['client-ref'] } : {}),
          },
        ],
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 200, body: refused('1', 'Throughput Rate Exceeded - please wait [ 10 ] and retry') };
      case 'unavailable':
        return { status: 503, body: '<html><body>Service Unavailable</body></html>' };
      case 'auth':
        return { status: 200, body: refused('4', 'Bad Credentials') };
      case 'invalid_recipient':
        return { status: 200, body: refused('6', 'Unroutable message - rejected') };
      case 'permanent':
        return { status: 200, body: refused('9', 'Quota Exceeded - rejected') };
    }
  }
}
