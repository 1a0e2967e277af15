import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake, token } from './chat-fake-kit';

const UNKNOWN_WEBHOOK = { message: 'Unknown Webhook', code: 10015 };
const INVALID_TOKEN = { message: 'Invalid Webhook Token', code: 50027 };

/**
 * Discord execute webhook: `POST /api/webhooks/{id}/{token}`; `?wait=true` answers the message
 * (200, `id`, `timestamp`), otherwise 204. Checks as Discord does: a known id and token, JSON,
 * `content` or `embeds`, content ≤ 2000 characters, ≤ 10 embeds.
 */
export class DiscordFake extends ChatHookFake {
  private sequence = 0n;

  constructor(
    readonly webhookId = '1234567890123456789',
    readonly webhookToken = token(68),
  ) {
    super(`/api/webhooks/${webhookId}/${webhookToken}`);
  }

  protected handle(request: FakeRequest): FakeReply {
    const match = /^\/api(?:\/v\d+)?\/webhooks\/([^/]+)\/([^/]+)$/.exec(request.path);
    this.expect(match && match[1] === this.webhookId, 404, 'unknown webhook', UNKNOWN_WEBHOOK);
    this.expect(match![2] === this.webhookToken, 401, 'invalid webhook token', INVALID_TOKEN);
    this.expect(request.method === 'POST', 405, `method ${request.method}`, { message: '405: Method Not Allowed', code: 0 });
    this.expect(this.isJson(request), 400, 'not JSON', { message: 'Cannot send an empty message', code: 50006 });
    const body = request.json();
    const content = typeof body.content === 'string' ? body.content : '';
    const embeds = Array.isArray(body.embeds) ? body.embeds : [];
    this.expect(content !== '' || embeds.length > 0, 400, 'empty message', { message: 'Cannot send an empty message', code: 50006 });
    const invalid = (field: string, code: string, message: string) =>
      this.refuse(400, `${field}: ${message}`, { message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } });
    if (content.length > 2000) invalid('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
    if (embeds.length > 10) invalid('embeds', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
    if (request.query.get('wait') !== 'true') return this.deliver(request, { status: 204 });
    const id = String(BigInt(Date.now() - 1420070400000) * 4194304n + ++this.sequence);
    return this.deliver(request, {
      status: 200,
      body: {
        id,
        type: 0,
        content,
        embeds,
        channel_id: '1100000000000000001',
        webhook_id: this.webhookId,
        timestamp: new Date().toISOString(),
        author: { id: this.webhookId, username: body.username ?? 'Captain Hook', bot: true },
      },
    });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return {
          status: 429,
          headers: { 'retry-after': '2', 'x-ratelimit-scope': 'shared' },
          body: { message: 'You are being rate limited.', retry_after: 1.234, global: false },
        };
      case 'unavailable':
        return { status: 503, body: { message: 'Service Unavailable', code: 0 } };
      case 'permanent':
        return { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
      case 'invalid_recipient':
        return { status: 404, body: UNKNOWN_WEBHOOK };
      case 'auth':
        return { status: 401, body: INVALID_TOKEN };
    }
  }
}
