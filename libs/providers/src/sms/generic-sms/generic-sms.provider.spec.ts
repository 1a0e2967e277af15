import { createProviderRuntime } from '../../provider-runtime';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { GenericSmsFake } from '../../../../../test/fakes/sms/generic-sms.fake';
import { describeSmsContract, SMS } from '../../../../../test/fakes/sms/sms-contract';
import { GENERIC_SMS_CREDENTIALS, GenericSmsProvider } from './generic-sms.provider';

describe('GenericSmsProvider against a gateway fake', () => {
  const fake = new GenericSmsFake({ secretKeyHeader: 'X-Gateway-Secret', secretKey: 'gateway-secret' });
  const provider = new GenericSmsProvider(testRuntime());
  const credentials = () => ({
    baseUrl: `${fake.origin}/sms`,
    apiKeyRequestHeader: 'X-Gateway-Key',
    apiKey: fake.gateway.apiKey,
    secretKeyRequestHeader: 'X-Gateway-Secret',
    secretKey: 'gateway-secret',
    from: 'ACME',
  });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('POSTs the message with the key headers; id and date from the default paths', async () => {
    const result = await provider.send({ ...SMS, customData: { campaign: 'otp' } }, credentials(), sendContext('msg-1'));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const request = fake.accepted[0];
    expect(request.json()).toEqual({
      to: '+15551234567',
      content: 'Your code is 1234',
      from: 'ACME',
      id: 'msg-1',
      customData: { campaign: 'otp' },
      sender: 'ACME',
    });
    expect(request.header('x-gateway-key')).toBe('gateway-api-key');
    expect(request.header('x-gateway-secret')).toBe('gateway-secret');
    expect(request.header('idempotency-key')).toBe('msg-1');
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
  });

  it('idPath and datePath read nested fields; the message from wins and is the sender; passthrough applies', async () => {
    const result = await provider.send(
      { ...SMS, from: '+15550001111' },
      { ...credentials(), idPath: 'message.uuid', datePath: 'message.sentAt' },
      sendContext('m', { passthrough: { body: { priority: 'high' }, headers: { 'x-tenant': 't1' } } }),
    );
    const request = fake.accepted[0];
    expect(request.json()).toMatchObject({ from: '+15550001111', sender: '+15550001111', priority: 'high' });
    expect(request.header('x-tenant')).toBe('t1');
    expect(result.id).toMatch(/^gw-[0-9a-f-]{36}$/);
  });

  it("a gateway 400 is invalid_request with the gateway's words", async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: '123' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400 });
    expect(error.message).toBe('Provider rejected the request (HTTP 400): invalid phone number 123');
  });

  describe('token mode', () => {
    const gateway = new GenericSmsFake({ tokenKey: 'X-Auth-Token' });
    const tokenProvider = new GenericSmsProvider(testRuntime());
    const tokenCredentials = () => ({
      baseUrl: `${gateway.origin}/sms`,
      apiKeyRequestHeader: 'X-Gateway-Key',
      apiKey: gateway.gateway.apiKey,
      from: 'ACME',
      authenticateByToken: 'true',
      domain: `${gateway.origin}/auth`,
      authenticationTokenKey: 'X-Auth-Token',
    });
    beforeAll(() => gateway.start());
    afterAll(() => gateway.close());
    beforeEach(() => gateway.reset());

    it('exchanges the keys for a token once, reuses it, and refreshes it after a 401', async () => {
      await tokenProvider.send(SMS, tokenCredentials(), sendContext('a'));
      await tokenProvider.send(SMS, tokenCredentials(), sendContext('b'));
      expect(gateway.tokensIssued).toBe(1);
      gateway.expireTokens();
      await tokenProvider.send(SMS, tokenCredentials(), sendContext('c'));
      expect(gateway.tokensIssued).toBe(2);
      expect(gateway.accepted.map((request) => request.json().id)).toEqual(['msg-1', 'msg-1', 'msg-1']);
      expect(gateway.refusals.map((refusal) => refusal.reason)).toEqual(['bad or stale token']);
      expect(gateway.accepted[0].header('x-auth-token')).toMatch(/^tok-/);
    });

    it('keys the auth URL refuses are an auth failure, and nothing is sent', async () => {
      const error = await providerFailure(tokenProvider.send(SMS, { ...tokenCredentials(), apiKey: 'wrong' }, sendContext()));
      expect(error).toMatchObject({ kind: 'auth', status: 401 });
      expect(error.message).toBe('Token exchange failed: Provider refused the credentials (HTTP 401): invalid API key');
      expect(gateway.requests.map((request) => request.path)).toEqual(['/auth']);
    });

    it('token mode without the auth URL or token key fails before any request', async () => {
      const error = await providerFailure(tokenProvider.send(SMS, { ...tokenCredentials(), domain: '', authenticationTokenKey: '' }, sendContext()));
      expect(error).toMatchObject({
        kind: 'invalid_request',
        message: 'The generic-sms integration authenticates by token and needs credentials.domain, credentials.authenticationTokenKey',
      });
      expect(gateway.requests).toHaveLength(0);
    });

    it('the auth URL passes the SSRF guard too', async () => {
      const strict = new GenericSmsProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
      const error = await providerFailure(strict.send(SMS, { ...tokenCredentials(), baseUrl: 'https://sms.example.com/send' }, sendContext()));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toContain('non-public address 127.0.0.1');
      expect(gateway.requests).toHaveLength(0);
    });
  });

  describeSmsContract({
    providerId: 'generic-sms',
    schema: GENERIC_SMS_CREDENTIALS,
    fake,
    createProvider: (runtime) => new GenericSmsProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'wrong' }), refusal: 'bad api key header' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 429, retryAfterMs: 4_000 },
      unavailable: { kind: 'retryable', status: 503 },
      auth: { kind: 'auth', status: 403 },
      invalid_recipient: { kind: 'invalid_recipient', status: 410 },
      permanent: { kind: 'permanent', status: 402, message: 'Provider request failed (HTTP 402): insufficient balance' },
    },
    check: false,
  });
});
