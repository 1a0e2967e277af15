import { FakeReply, FakeRequest, VendorOutcome } from '../vendor-fake';
import { ChatHookFake, text, token } from './chat-fake-kit';

const STATES = ['alerting', 'ok'];

/**
 * Grafana OnCall formatted webhook: `POST /integrations/v1/formatted_webhook/{token}/` with JSON
 * `{alert_uid, title, image_url, state, link_to_upstream_details, message}`; answers `Ok.`. Checks
 * that `state` is `alerting` or `ok` and the strings are strings.
 */
export class GrafanaOnCallFake extends ChatHookFake {
  constructor() {
    super(`/integrations/v1/formatted_webhook/${token(25)}/`);
  }

  protected handle(request: FakeRequest): FakeReply {
    this.expect(request.path === this.hookPath, 403, 'unknown integration token', { detail: 'Integration not found' });
    this.expect(request.method === 'POST', 405, `method ${request.method}`, { detail: `Method "${request.method}" not allowed.` });
    this.expect(this.isJson(request), 400, 'not JSON', { detail: 'JSON parse error' });
    const body = request.json();
    for (const field of ['alert_uid', 'title', 'image_url', 'link_to_upstream_details', 'message']) {
      this.expect(body[field] === undefined || typeof body[field] === 'string', 400, `${field} is not a string`, { [field]: ['Not a valid string.'] });
    }
    this.expect(body.state === undefined || STATES.includes(body.state), 400, `state ${body.state}`, { state: [`"${body.state}" is not a valid choice.`] });
    return this.deliver(request, text(200, 'Ok.'));
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '60' }, body: { detail: 'Request was throttled. Expected available in 60 seconds.' } };
      case 'unavailable':
        return text(503, 'Service Unavailable');
      case 'permanent':
        return { status: 400, body: { detail: 'Bad request' } };
      case 'invalid_recipient':
        return { status: 404, body: { detail: 'Not found.' } };
      case 'auth':
        return { status: 403, body: { detail: 'Integration not found' } };
    }
  }
}
