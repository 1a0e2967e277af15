import { hasBasic } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { E164, hexId, rfc2822 } from './sms-fake-kit';

const twilioError = (status: number, code: number, message: string) => ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

/**
 * Twilio's 2010-04-01 REST API: `POST /Accounts/{sid}/Messages.json` (form-urlencoded To, From,
 * Body; Basic sid:token) and `GET /Accounts/{sid}.json`. Errors are `{code, message, more_info, status}`.
 */
export class TwilioFake extends VendorFake {
  constructor(
    readonly accountSid = `AC${hexId(32)}`,
    readonly token = 'twilio-auth-token',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(hasBasic(request, this.accountSid, this.token), 401, 'bad basic credentials', twilioError(401, 20003, 'Authenticate'));
    const account = `/2010-04-01/Accounts/${this.accountSid}`;
    if (request.method === 'GET' && request.path === `${account}.json`) {
      return { status: 200, body: { sid: this.accountSid, friendly_name: 'Test account', status: 'active', type: 'Full' } };
    }
    this.expect(
      request.method === 'POST' && request.path === `${account}/Messages.json`,
      404,
      `no route ${request.method} ${request.path}`,
      twilioError(404, 20404, 'The requested resource was not found'),
    );
    this.expect(request.header('content-type')?.startsWith('application/x-www-form-urlencoded'), 415, 'not a form');
    const form = request.form();
    const to = form.get('To') ?? '';
    const refuse = (code: number, message: string) => this.refuse(400, message, twilioError(400, code, message));
    if (!to) refuse(21604, "A 'To' phone number is required.");
    if (!E164.test(to)) refuse(21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!form.get('From') && !form.get('MessagingServiceSid')) refuse(21603, "A 'From' phone number is required.");
    if (!form.get('Body')) refuse(21602, 'Message body is required.');
    return this.deliver(request, {
      status: 201,
      body: {
        sid: `SM${hexId(32)}`,
        account_sid: this.accountSid,
        to,
        from: form.get('From'),
        body: form.get('Body'),
        status: 'queued',
        date_created: rfc2822(),
        error_code: null,
        error_message: null,
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '2' }, body: twilioError(429, 20429, 'Too Many Requests') };
      case 'unavailable':
        return { status: 503, body: twilioError(503, 20503, 'Service Unavailable') };
      case 'auth':
        return { status: 401, body: twilioError(401, 20003, 'Authenticate') };
      case 'invalid_recipient':
        return { status: 400, body: twilioError(400, 21614, "'To' number is not a valid mobile number") };
      case 'permanent':
        return { status: 400, body: twilioError(400, 21408, "Permission to send an SMS has not been enabled for the region indicated by the 'To' number") };
    }
  }
}
