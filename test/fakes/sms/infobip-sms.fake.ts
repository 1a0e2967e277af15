import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { BARE_MSISDN, hexId } from './sms-fake-kit';

const requestError = (messageId: string, text: string, validationErrors?: Record<string, string[]>) => ({
  requestError: { serviceException: { messageId, text, ...(validationErrors ? { validationErrors } : {}) } },
});
const PENDING = { groupId: 1, groupName: 'PENDING', id: 26, name: 'PENDING_ACCEPTED', description: 'Message sent to next instance' };
const rejected = (id: number, name: string, description: string) => ({ groupId: 5, groupName: 'REJECTED', id, name, description });

/**
 * Infobip SMS on an account host: `POST /sms/2/text/advanced` (JSON `{messages: [{from,
 * destinations: [{to, messageId}], text}]}`, `Authorization: App <key>`) answering `{bulkId,
 * messages: [{to, messageId, status}]}`, and `GET /account/1/balance`. Request errors are
 * `{requestError: {serviceException: {messageId, text}}}`; a refused destination comes back with
 * HTTP 200 and a status in the REJECTED group.
 */
export class InfobipSmsFake extends VendorFake {
  constructor(readonly apiKey = 'fake-infobip-api-key-0001') {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(hasScheme(request, 'App', this.apiKey), 401, 'bad App key', requestError('UNAUTHORIZED', 'Invalid login details'));
    if (request.method === 'GET' && request.path === '/account/1/balance') return { status: 200, body: { balance: 47.79, currency: 'EUR' } };
    this.expect(
      request.method === 'POST' && request.path === '/sms/2/text/advanced',
      404,
      `no route ${request.method} ${request.path}`,
      requestError('NOT_FOUND', 'Requested URL not found'),
    );
    this.expect(
      request.header('content-type')?.startsWith('application/json'),
      415,
      'not JSON',
      requestError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'),
    );
    const messages = request.json().messages;
    this.expect(
      Array.isArray(messages) && messages.length > 0,
      400,
      'no messages',
      requestError('BAD_REQUEST', 'Bad request', { messages: ['must not be empty'] }),
    );
    const results = messages.flatMap((message: any, i: number) => {
      this.expect(
        Array.isArray(message.destinations) && message.destinations.length > 0,
        400,
        'no destinations',
        requestError('BAD_REQUEST', 'Bad request', { [`messages[${i}].destinations`]: ['must not be empty'] }),
      );
      this.expect(
        typeof message.text === 'string' && message.text !== '',
        400,
        'no text',
        requestError('BAD_REQUEST', 'Bad request', { [`messages[${i}].text`]: ['must not be blank'] }),
      );
      return message.destinations.map((destination: { to?: string; messageId?: string }) => ({
        to: destination.to,
        messageId: destination.messageId ?? hexId(20),
        status: BARE_MSISDN.test(destination.to ?? '') ? PENDING : rejected(52, 'REJECTED_INVALID_DESTINATION', 'Invalid destination address'),
      }));
    });
    const refused = results.find((result: { status: { groupName: string } }) => result.status.groupName === 'REJECTED');
    if (refused) this.refuse(200, `rejected destination ${refused.to}`, { bulkId: hexId(24), messages: results });
    return this.deliver(request, { status: 200, body: { bulkId: hexId(24), messages: results } });
  }

  protected failure(outcome: VendorOutcome, request: FakeRequest): FakeReply {
    const to = request.json().messages?.[0]?.destinations?.[0]?.to;
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '5' }, body: requestError('TOO_MANY_REQUESTS', 'Too many requests') };
      case 'unavailable':
        return { status: 500, body: requestError('GENERAL_ERROR', 'Something went wrong. Please contact support.') };
      case 'auth':
        return { status: 401, body: requestError('UNAUTHORIZED', 'Invalid login details') };
      case 'invalid_recipient':
        return {
          status: 200,
          body: { bulkId: hexId(24), messages: [{ to, messageId: hexId(20), status: rejected(51, 'REJECTED_DESTINATION', 'Destination address blocked') }] },
        };
      case 'permanent':
        return {
          status: 200,
          body: { bulkId: hexId(24), messages: [{ to, messageId: hexId(20), status: rejected(12, 'REJECTED_NOT_ENOUGH_CREDITS', 'Not enough credits') }] },
        };
    }
  }
}
