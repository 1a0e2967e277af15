import { randomBytes } from 'node:crypto';
import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake, text } from './chat-fake-kit';

const mattermostId = () => randomBytes(13).toString('hex').slice(0, 26);

/**
 * Mattermost incoming webhook: `POST /hooks/{26-char id}` with JSON `{text | attachments, channel?}`;
 * answers `ok` (text/plain) with `X-Request-Id`. Errors are app errors `{id, message,
 * detailed_error, request_id, status_code}`: an unknown hook or channel is a 400.
 */
export class MattermostFake extends ChatHookFake {
  constructor(
    /** Channel names the hook may post to besides its own (the hook is not locked to its channel). */
    readonly channels: readonly string[] = ['town-square', 'alerts'],
  ) {
    super(`/hooks/${mattermostId()}`);
  }

  private appError(status: number, id: string, message: string) {
    return { status, headers: { 'x-request-id': mattermostId() }, body: { id, message, detailed_error: '', request_id: mattermostId(), status_code: status } };
  }

  protected handle(request: FakeRequest): FakeReply {
    const refuse = (status: number, reason: string, id: string, message: string) => this.refuse(status, reason, this.appError(status, id, message).body);
    if (request.path !== this.hookPath) refuse(400, 'unknown hook', 'web.incoming_webhook.invalid.app_error', 'Invalid webhook.');
    if (request.method !== 'POST') refuse(405, `method ${request.method}`, 'api.context.method_not_allowed', 'Method not allowed.');
    if (!this.isJson(request)) refuse(400, 'not JSON', 'web.incoming_webhook.parse.app_error', 'Unable to parse incoming data.');
    const body = request.json();
    if ((typeof body.text !== 'string' || body.text === '') && !Array.isArray(body.attachments))
      refuse(400, 'no text', 'web.incoming_webhook.text.app_error', 'No text specified.');
    if (body.channel !== undefined && !this.channels.includes(body.channel))
      refuse(400, `unknown channel ${body.channel}`, 'web.incoming_webhook.channel.app_error', "Couldn't find the channel.");
    return this.deliver(request, text(200, 'ok', { 'x-request-id': mattermostId() }));
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return text(429, 'limit exceeded', { 'retry-after': '3', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' });
      case 'unavailable':
        return this.appError(503, 'api.server.unavailable', 'Service unavailable.');
      case 'permanent':
        return this.appError(501, 'web.incoming_webhook.disabled.app_error', 'Incoming webhooks have been disabled by the system admin.');
      case 'invalid_recipient':
        return this.appError(400, 'web.incoming_webhook.invalid.app_error', 'Invalid webhook.');
      case 'auth':
        return this.appError(403, 'api.context.permissions.app_error', 'You do not have the appropriate permissions.');
    }
  }
}
