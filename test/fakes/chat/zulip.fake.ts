import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { token } from './chat-fake-kit';

const error = (status: number, code: string, msg: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: { result: 'error', msg, code, ...extra },
});

/**
 * Zulip's Slack-compatible incoming webhook: `POST /api/v1/external/slack_incoming?api_key=…&stream=…`
 * with JSON `{text}` (or Slack `blocks` / `attachments`). The bot's api_key and the stream are in the
 * query. Answers `{result:'success', msg:''}`; errors `{result:'error', code, msg}`.
 */
export class ZulipFake extends VendorFake {
  constructor(
    readonly botApiKey = token(32),
    readonly streams: readonly string[] = ['alerts'],
  ) {
    super();
  }

  /** What a subscriber stores: the hook with the bot key and a stream. */
  webhookUrl(stream = this.streams[0], apiKey = this.botApiKey): string {
    return `${this.origin}/api/v1/external/slack_incoming?api_key=${encodeURIComponent(apiKey)}&stream=${encodeURIComponent(stream)}&topic=notifications`;
  }

  protected handle(request: FakeRequest): FakeReply {
    const refuse = (reply: ReturnType<typeof error>, reason: string) => this.refuse(reply.status, reason, reply.body);
    if (request.path !== '/api/v1/external/slack_incoming') refuse(error(404, 'BAD_REQUEST', 'Not Found'), `no route ${request.path}`);
    if (request.query.get('api_key') !== this.botApiKey) refuse(error(401, 'INVALID_API_KEY', 'Invalid API key'), 'bad api_key');
    if (request.method !== 'POST') refuse(error(405, 'BAD_REQUEST', 'Method Not Allowed'), `method ${request.method}`);
    const stream = request.query.get('stream') ?? '';
    if (!this.streams.includes(stream))
      refuse(error(400, 'STREAM_DOES_NOT_EXIST', `Channel '${stream}' does not exist`, { stream }), `unknown stream ${stream}`);
    let body: any;
    try {
      body = request.header('content-type')?.startsWith('application/json') ? request.json() : undefined;
    } catch {
      body = undefined;
    }
    if (!body || (typeof body.text !== 'string' && !Array.isArray(body.blocks) && !Array.isArray(body.attachments)))
      refuse(error(400, 'BAD_REQUEST', "Missing 'text' argument"), 'no text');
    return this.deliver(request, { status: 200, body: { result: 'success', msg: '' } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return error(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': 2.5 }, { 'retry-after': '3' });
      case 'unavailable':
        return { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body>502 Bad Gateway</body></html>' };
      case 'permanent':
        return error(400, 'BAD_REQUEST', 'Message must not be empty');
      case 'invalid_recipient':
        return error(400, 'STREAM_DOES_NOT_EXIST', "Channel 'alerts' does not exist", { stream: 'alerts' });
      case 'auth':
        return error(401, 'USER_DEACTIVATED', 'Account is deactivated');
    }
  }
}
