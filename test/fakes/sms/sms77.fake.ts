import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

/** seven.io answers HTTP 200 with a bare return code when it refuses a request. */
const code = (value: number): FakeReply => ({ status: 200, body: value });

/**
 * seven.io (formerly sms77): `POST /api/sms` (form `to`, `text`, `from`, `json=1`, header
 * `X-Api-Key`) answering `{success: "100", messages: [{id, …}]}`, and `GET /api/balance`. Refusals
 * are HTTP 200 with a return code (900 bad key, 202 bad recipient, 500 no credit, …).
 */
export class Sms77Fake extends VendorFake {
  private nextId = 77_000_000_000;

  constructor(readonly apiKey = 'fake-seven-api-key') {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.header('x-api-key') === this.apiKey, 200, 'bad api key', 900);
    if (request.method === 'GET' && request.path === '/api/balance') return { status: 200, body: { amount: 25.5, currency: 'EUR' } };
    this.expect(request.method === 'POST' && request.path === '/api/sms', 404, `no route ${request.method} ${request.path}`);
    this.expect(request.header('content-type')?.startsWith('application/x-www-form-urlencoded'), 415, 'not a form');
    const form = request.form();
    this.expect(form.get('to'), 200, 'no to', 301);
    this.expect(form.get('text'), 200, 'no text', 305);
    const to = form.get('to')!;
    this.expect(/^\+?[1-9]\d{6,14}$/.test(to), 200, `bad recipient ${to}`, 202);
    const from = form.get('from') ?? '';
    this.expect(from === '' || /^(\+?\d{1,16}|[A-Za-z0-9 ]{1,11})$/.test(from), 200, `bad sender ${from}`, 201);
    const message = {
      id: String(this.nextId++),
      sender: from,
      recipient: to.replace(/^\+/, ''),
      text: form.get('text'),
      encoding: 'gsm',
      label: form.get('label'),
      parts: 1,
      udh: null,
      is_binary: false,
      price: 0.075,
      success: true,
      error: null,
      error_text: null,
    };
    const reply =
      form.get('json') === '1' ? { success: '100', total_price: 0.075, balance: 25.425, debug: 'false', sms_type: 'direct', messages: [message] } : 100;
    return this.deliver(request, { status: 200, body: reply });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return code(402);
      case 'unavailable':
        return { status: 502, body: '<html><body>Bad Gateway</body></html>' };
      case 'auth':
        return code(900);
      case 'invalid_recipient':
        return code(202);
      case 'permanent':
        return code(500);
    }
  }
}
