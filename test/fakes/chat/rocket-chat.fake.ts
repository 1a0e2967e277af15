import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { token } from './chat-fake-kit';

const failure = (status: number, errorType: string, error: string) => ({ status, body: { success: false, error: `${error} [${errorType}]`, errorType } });

/**
 * Rocket.Chat REST: `POST /api/v1/chat.sendMessage` with `X-Auth-Token` and `X-User-Id` (a personal
 * access token) and JSON `{message: {rid, msg}}`; answers `{message: {_id, rid, msg, ts, u}, success:
 * true}`. Unauthenticated calls get 401 `{status:'error', message}`; an unknown room 400
 * `{success:false, error, errorType:'error-invalid-room'}`.
 */
export class RocketChatFake extends VendorFake {
  constructor(
    readonly authToken = token(43),
    readonly userId = token(17),
    readonly rooms: readonly string[] = ['GENERAL'],
  ) {
    super();
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.path === '/api/v1/chat.sendMessage', 404, `no route ${request.path}`, { success: false, error: 'Not found' });
    this.expect(request.header('x-auth-token') === this.authToken && request.header('x-user-id') === this.userId, 401, 'bad token or user id', {
      status: 'error',
      message: 'You must be logged in to do this.',
    });
    this.expect(request.method === 'POST', 405, `method ${request.method}`, { success: false, error: 'Method not allowed' });
    let body: any;
    try {
      body = request.header('content-type')?.startsWith('application/json') ? request.json() : undefined;
    } catch {
      body = undefined;
    }
    const refuse = (reply: ReturnType<typeof failure>, reason: string) => this.refuse(reply.status, reason, reply.body);
    if (!body?.message || typeof body.message !== 'object') refuse(failure(400, 'error-invalid-params', "Match error: Missing key 'message'"), 'no message');
    if (typeof body.message.rid !== 'string') refuse(failure(400, 'error-invalid-params', "Match error: Missing key 'rid'"), 'no rid');
    if (!this.rooms.includes(body.message.rid)) refuse(failure(400, 'error-invalid-room', 'Invalid room'), `unknown room ${body.message.rid}`);
    if (typeof body.message.msg !== 'string')
      refuse(failure(400, 'error-invalid-params', 'Match error: Expected string, got undefined in field msg'), 'no msg');
    const ts = new Date().toISOString();
    return this.deliver(request, {
      status: 200,
      body: {
        message: {
          _id: token(17),
          rid: body.message.rid,
          msg: body.message.msg,
          ts,
          u: { _id: this.userId, username: 'notify.bot', name: 'Notify' },
          _updatedAt: ts,
        },
        success: true,
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          ...failure(429, 'error-too-many-requests', 'Error, too many requests. Please slow down. You must wait 2 seconds before trying this endpoint again.'),
          headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 2_000) },
        };
      case 'unavailable':
        return { status: 503, headers: { 'content-type': 'text/html' }, body: '<html>503 Service Temporarily Unavailable</html>' };
      case 'permanent':
        return failure(400, 'error-action-not-allowed', 'Sending messages is not allowed');
      case 'invalid_recipient':
        return failure(400, 'error-room-archived', 'Room is archived');
      case 'auth':
        return { status: 401, body: { status: 'error', message: 'You must be logged in to do this.' } };
    }
  }
}
