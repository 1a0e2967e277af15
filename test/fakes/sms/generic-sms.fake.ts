import { randomUUID } from 'node:crypto';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';
import { E164 } from './sms-fake-kit';

export interface GenericSmsGateway {
  apiKeyHeader: string;
  apiKey: string;
  secretKeyHeader?: string;
  secretKey?: string;
  /** Token mode: `POST /auth` with the key headers returns `{data: {<tokenKey>: token}}`; sends carry `<tokenKey>: token`. */
  tokenKey?: string;
}

/**
 * A "bring your own gateway" SMS endpoint for the generic-sms adapter: `POST /sms` takes
 * `{to, content, from, id, sender, customData}` with the configured key headers (or a token from
 * `POST /auth`) and answers `{id, date, message: {uuid, sentAt}}` so id and date paths can be
 * exercised. `expireTokens()` makes every token issued so far stale (401).
 */
export class GenericSmsFake extends VendorFake {
  readonly gateway: GenericSmsGateway;
  private readonly liveTokens = new Set<string>();
  tokensIssued = 0;

  constructor(gateway: Partial<GenericSmsGateway> = {}) {
    super();
    this.gateway = { apiKeyHeader: 'X-Gateway-Key', apiKey: 'gateway-api-key', ...gateway };
  }

  expireTokens(): void {
    this.liveTokens.clear();
  }

  protected handle(request: FakeRequest): FakeReply {
    const { apiKeyHeader, apiKey, secretKeyHeader, secretKey, tokenKey } = this.gateway;
    const keysPresent = request.header(apiKeyHeader) === apiKey && (!secretKeyHeader || request.header(secretKeyHeader) === secretKey);
    if (request.method === 'POST' && request.path === '/auth') {
      this.expect(tokenKey, 404, 'no token mode');
      this.expect(keysPresent, 401, 'bad api key header', { message: 'invalid API key' });
      const token = `tok-${randomUUID()}`;
      this.liveTokens.add(token);
      this.tokensIssued++;
      return { status: 200, body: { data: { [tokenKey!]: token, expiresIn: 3600 } } };
    }
    this.expect(request.method === 'POST' && request.path === '/sms', 404, `no route ${request.method} ${request.path}`);
    if (tokenKey) this.expect(this.liveTokens.has(request.header(tokenKey) ?? ''), 401, 'bad or stale token', { message: 'token expired' });
    else this.expect(keysPresent, 401, 'bad api key header', { message: 'invalid API key' });
    this.expect(request.header('content-type')?.startsWith('application/json'), 415, 'not JSON', { message: 'JSON only' });
    const body = request.json();
    this.expect(E164.test(body.to ?? ''), 400, `bad to ${body.to}`, { message: `invalid phone number ${body.to}` });
    this.expect(body.content, 400, 'no content', { message: 'content is required' });
    const id = randomUUID();
    const date = new Date().toISOString();
    return this.deliver(request, { status: 200, body: { id, date, message: { uuid: `gw-${id}`, sentAt: date } } });
  }

  protected failure(outcome: VendorOutcome): FakeReply {
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '4' }, body: { message: 'slow down' } };
      case 'unavailable':
        return { status: 503, body: { message: 'gateway unavailable' } };
      case 'auth':
        return { status: 403, body: { message: 'key revoked' } };
      case 'invalid_recipient':
        return { status: 410, body: { message: 'number no longer in service' } };
      case 'permanent':
        return { status: 402, body: { message: 'insufficient balance' } };
    }
  }
}
