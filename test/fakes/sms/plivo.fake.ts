import { randomUUID } from 'node:crypto';
import { hasBasic } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { hexId } from './sms-fake-kit';

const plivoError = (error: string) => ({ api_id: randomUUID(), error });

/**
 * Plivo's v1 API: `POST /v1/Account/{authId}/Message/` (JSON `{src, dst, text}`, Basic
 * authId:authToken) answering 202 `{message_uuid: [..]}`, and `GET /v1/Account/{authId}/`.
 */
export class PlivoFake extends VendorFake {
  constructor(
    readonly authId = `MA${hexId(18).toUpperCase()}`,
    readonly authToken = 'plivo-auth-token',
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(hasBasic(request, this.authId, this.authToken), 401, 'bad basic credentials', plivoError('Authentication credentials invalid'));
    const account = `/v1/Account/${this.authId}/`;
    if (request.method === 'GET' && request.path === account) {
      return { status: 200, body: { api_id: randomUUID(), account_type: 'standard', auth_id: this.authId, cash_credits: '12.50000', name: 'Test' } };
    }
    this.expect(request.method === 'POST' && request.path === `${account}Message/`, 404, `no route ${request.method} ${request.path}`, plivoError('not found'));
    this.expect(request.header('content-type')?.startsWith('application/json'), 400, 'not JSON', plivoError('content type must be application/json'));
    const body = request.json();
    for (const field of ['src', 'dst', 'text']) this.expect(body[field], 400, `missing ${field}`, plivoError(`Missing mandatory parameter: ${field}`));
    this.expect(/^\+?[1-9]\d{6,14}$/.test(body.dst), 400, `bad dst ${body.dst}`, plivoError('dst parameter is invalid'));
    return this.deliver(request, { status: 202, body: { api_id: randomUUID(), message: 'message(s) queued', message_uuid: [randomUUID()] } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '3' }, body: plivoError('Too many requests') };
      case 'unavailable':
        return { status: 500, body: plivoError('Internal server error') };
      case 'auth':
        return { status: 401, body: plivoError('Authentication credentials invalid') };
      case 'invalid_recipient':
        return { status: 400, body: plivoError('dst parameter is invalid') };
      case 'permanent':
        return { status: 402, body: plivoError('Insufficient credit in the account to send the message') };
    }
  }
}
