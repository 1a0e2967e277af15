import { ChatMessage } from '@app/delivery';
import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { WhatsappBusinessFake } from '../../../../../test/fakes/chat/whatsapp-business.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { createProviderRuntime } from '../../provider-runtime';
import { messageBody, WhatsappBusinessProvider } from './whatsapp-business.provider';

const template = { name: 'order_update', language: { code: 'de' }, components: [{ type: 'body', parameters: [{ type: 'text', text: '42' }] }] };

describe('messageBody', () => {
  const message: ChatMessage = { id: 'm', content: 'Hello' };
  it.each<[string, ChatMessage, Record<string, unknown> | undefined, object]>([
    ['text by default', message, undefined, { type: 'text', text: { body: 'Hello', preview_url: false } }],
    ['text options from overrides', message, { text: { preview_url: true } }, { type: 'text', text: { body: 'Hello', preview_url: true } }],
    ['a template from overrides', message, { template }, { type: 'template', template }],
    ['a template from customData (Novu)', { ...message, customData: { template } }, undefined, { type: 'template', template }],
    ['overrides over customData', { ...message, customData: { image: { link: 'a' } } }, { template }, { type: 'template', template }],
    ['an image', message, { image: { link: 'https://example.com/a.png' } }, { type: 'image', image: { link: 'https://example.com/a.png' } }],
  ])('%s', (_case, input, overrides, expected) => {
    expect(messageBody(input, overrides)).toEqual(expected);
  });
});

describe('WhatsappBusinessProvider against a Cloud API fake', () => {
  const fake = new WhatsappBusinessFake();
  const provider = new WhatsappBusinessProvider(testRuntime());
  const credentials = (extra: Record<string, unknown> = {}) => ({
    apiToken: fake.accessToken,
    phoneNumberIdentification: fake.phoneNumberId,
    baseUrl: fake.origin,
    ...extra,
  });
  const message = (): ChatMessage => ({ id: 'msg-1', content: 'Hello Ada', phoneNumber: '+49 151 2345-6789' });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    fake.versions.length = 0;
  });

  it("sends a text message to the subscriber's phone (digits only) on v21.0; the id is messages[0].id", async () => {
    const result = await provider.send(message(), credentials(), sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].path).toBe(`/v21.0/${fake.phoneNumberId}/messages`);
    expect(fake.accepted[0].json()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '4915123456789',
      type: 'text',
      text: { body: 'Hello Ada', preview_url: false },
    });
    expect(result.id).toMatch(/^wamid\./);
  });

  it('sends the template of the overrides, on the configured Graph version', async () => {
    await provider.send(message(), credentials({ apiVersion: '22.0' }), sendContext('msg-1', { overrides: { template } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.versions).toEqual(['v22.0']);
    expect(fake.accepted[0].json()).toMatchObject({ type: 'template', template });
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 400, providerCode: '130429' }],
    ['unavailable', { kind: 'retryable', status: 500, providerCode: '131000' }],
    ['permanent', { kind: 'invalid_request', status: 400, providerCode: '131009' }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 400, providerCode: '131026' }],
    ['auth', { kind: 'auth', status: 401, providerCode: '190' }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send(message(), credentials(), sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.accessToken);
  });

  it('maps what the fake refuses: a wrong token, an unknown phone number id, an unknown template', async () => {
    expect(await providerFailure(provider.send(message(), credentials({ apiToken: 'EAAGwrong' }), sendContext()))).toMatchObject({
      kind: 'auth',
      providerCode: '190',
    });
    expect(await providerFailure(provider.send(message(), credentials({ phoneNumberIdentification: '999' }), sendContext()))).toMatchObject({
      kind: 'invalid_request',
      providerCode: '100',
    });
    const unknownTemplate = await providerFailure(
      provider.send(message(), credentials(), sendContext('m', { overrides: { template: { name: 'nope', language: { code: 'en_US' } } } })),
    );
    expect(unknownTemplate).toMatchObject({
      kind: 'invalid_request',
      providerCode: '132001',
      message: expect.stringContaining('template name (nope) does not exist in en_US'),
    });
    expect(fake.refusals.map((r) => r.reason)).toEqual(['bad bearer token', 'unknown phone number id 999', 'unknown template nope']);
  });

  it('missing credentials, a bad apiVersion or no phone fail before any request', async () => {
    const missing = await providerFailure(provider.send(message(), { baseUrl: fake.origin }, sendContext()));
    expect(missing).toMatchObject({
      kind: 'invalid_request',
      message: 'The whatsapp-business integration needs credentials.apiToken, credentials.phoneNumberIdentification',
    });
    expect(await providerFailure(provider.send(message(), credentials({ apiVersion: '../me' }), sendContext()))).toMatchObject({ kind: 'invalid_request' });
    expect(await providerFailure(provider.send({ ...message(), phoneNumber: undefined }, credentials(), sendContext()))).toMatchObject({
      kind: 'invalid_recipient',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('the baseUrl passes the SSRF guard', async () => {
    const strict = new WhatsappBusinessProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    const error = await providerFailure(strict.send(message(), credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining('non-public address 127.0.0.1') });
    expect(fake.requests).toHaveLength(0);
  });

  it("check reads the phone number: passes with the token, fails with Graph's words", async () => {
    await expect(provider.check(credentials(), AbortSignal.timeout(5_000))).resolves.toEqual({ ok: true });
    await expect(provider.check(credentials({ apiToken: 'EAAGwrong' }), AbortSignal.timeout(5_000))).resolves.toEqual({
      ok: false,
      message: 'Invalid OAuth access token - Cannot parse access token',
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v21.0/${fake.phoneNumberId}`, `GET /v21.0/${fake.phoneNumberId}`]);
  });
});
