import { randomUUID } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake, text, token } from './chat-fake-kit';

/**
 * Slack: an incoming webhook (`POST /services/T…/B…/<secret>`, answers the text `ok` or an error
 * code as text with 400/403/404/410, 429 with Retry-After) and the Web API (`POST
 * /api/chat.postMessage`, `POST /api/auth.test`, Bearer bot token, HTTP 200 `{ok, error}`).
 */
export class SlackFake extends ChatHookFake {
  private sequence = 0;

  constructor(
    readonly botToken = 'xoxb-1-test-bot-token',
    /** Channel ids the bot is a member of. */
    readonly channels: readonly string[] = ['C0TEST0001'],
    /** Channel ids that exist but the bot has not joined. */
    readonly otherChannels: readonly string[] = ['C0NOTJOINED'],
  ) {
    super(`/services/T0TEST/B0TEST/${token()}`);
  }

  protected handle(request: FakeRequest): FakeReply {
    if (request.path.startsWith('/api/')) return this.webApi(request);
    this.expect(request.method === 'POST', 405, `method ${request.method}`, 'invalid_method');
    if (request.path !== this.hookPath) this.refuse(404, 'unknown hook', 'no_service');
    this.expect(this.isJson(request), 400, 'not a JSON body', 'invalid_payload');
    const body = request.json();
    this.expect(typeof body.text === 'string' || Array.isArray(body.blocks) || Array.isArray(body.attachments), 400, 'no text', 'no_text');
    this.expect(body.text === undefined || typeof body.text === 'string', 400, 'text is not a string', 'invalid_payload');
    return this.deliver(request, text(200, 'ok', { 'x-slack-req-id': randomUUID().replace(/-/g, '') }));
  }

  private webApi(request: FakeRequest): FakeReply {
    // The Web API answers its errors with HTTP 200.
    const refuse = (reason: string, error: string) => this.refuse(200, reason, { ok: false, error });
    this.expect(request.method === 'POST', 405, `method ${request.method}`, { ok: false, error: 'method_not_supported' });
    if (!request.header('authorization')) refuse('no token', 'not_authed');
    if (!hasScheme(request, 'Bearer', this.botToken)) refuse('bad bearer token', 'invalid_auth');
    if (request.path === '/api/auth.test')
      return {
        status: 200,
        body: { ok: true, url: 'https://test.slack.com/', team: 'Test', user: 'notify-bot', team_id: 'T0TEST', user_id: 'U0BOT', bot_id: 'B0BOT' },
      };
    if (request.path !== '/api/chat.postMessage') this.refuse(404, `no method ${request.path}`, { ok: false, error: 'unknown_method' });
    if (!this.isJson(request)) refuse('not a JSON body', 'invalid_arguments');
    const body = request.json();
    if (typeof body.channel !== 'string' || body.channel === '') refuse('no channel', 'channel_not_found');
    if (this.otherChannels.includes(body.channel)) refuse(`not in ${body.channel}`, 'not_in_channel');
    if (!this.channels.includes(body.channel)) refuse(`unknown channel ${body.channel}`, 'channel_not_found');
    if (typeof body.text !== 'string' && !Array.isArray(body.blocks) && !Array.isArray(body.attachments)) refuse('no text', 'no_text');
    const ts = `${Math.floor(Date.now() / 1000)}.${String(++this.sequence).padStart(6, '0')}`;
    return this.deliver(request, {
      status: 200,
      body: { ok: true, channel: body.channel, ts, message: { type: 'message', text: body.text, ts, bot_id: 'B0BOT' } },
    });
  }

  protected failure(outcome: VendorOutcome, request: FakeRequest): FakeReply {
    if (request.path.startsWith('/api/')) {
      const error = (code: string) => ({ status: 200, body: { ok: false, error: code } });
      switch (outcome) {
        case 'rate_limited':
          return { status: 429, headers: { 'retry-after': '30' }, body: { ok: false, error: 'ratelimited' } };
        case 'unavailable':
          return error('internal_error');
        case 'permanent':
          return error('msg_too_long');
        case 'invalid_recipient':
          return error('is_archived');
        case 'auth':
          return error('token_revoked');
      }
    }
    switch (outcome) {
      case 'rate_limited':
        return text(429, 'rate_limited', { 'retry-after': '30' });
      case 'unavailable':
        return text(500, 'rollup_error');
      case 'permanent':
        return text(403, 'action_prohibited');
      case 'invalid_recipient':
        return text(410, 'channel_is_archived');
      case 'auth':
        return text(403, 'invalid_token');
    }
  }
}
