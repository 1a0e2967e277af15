import { ChatMessage } from '@app/delivery';
import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { RocketChatFake } from '../../../../../test/fakes/chat/rocket-chat.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { createProviderRuntime } from '../../provider-runtime';
import { RocketChatProvider } from './rocket-chat.provider';

describe('RocketChatProvider against a Rocket.Chat fake', () => {
  const fake = new RocketChatFake();
  const provider = new RocketChatProvider(testRuntime());
  const credentials = () => ({ token: fake.authToken, user: fake.userId });
  const message = (room = fake.rooms[0]): ChatMessage => ({ id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.origin, channel: room });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends {message:{rid, msg}} to {server}/api/v1/chat.sendMessage with the token headers; id and date from the message', async () => {
    const result = await provider.send(message(), credentials(), sendContext('msg-1', { overrides: { alias: 'Notify', tmid: 'thread-1' } }));
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    const request = fake.accepted[0];
    expect(request.header('x-auth-token')).toBe(fake.authToken);
    expect(request.header('x-user-id')).toBe(fake.userId);
    expect(request.json()).toEqual({ message: { rid: 'GENERAL', msg: 'Hello Ada', alias: 'Notify', tmid: 'thread-1' } });
    expect(result.id).toMatch(/^[A-Za-z0-9]{17}$/);
    expect(Math.abs(Date.parse(result.date) - Date.now())).toBeLessThan(5_000);
  });

  it('keeps a path prefix of the server URL (a Rocket.Chat behind /chat)', async () => {
    const error = await providerFailure(provider.send({ ...message(), webhookUrl: `${fake.origin}/chat/` }, credentials(), sendContext()));
    expect(fake.requests[0].path).toBe('/chat/api/v1/chat.sendMessage');
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 404 });
  });

  it.each<[VendorOutcome, object]>([
    ['rate_limited', { kind: 'rate_limited', status: 429, providerCode: 'error-too-many-requests' }],
    ['unavailable', { kind: 'retryable', status: 503 }],
    ['permanent', { kind: 'permanent', status: 400, providerCode: 'error-action-not-allowed' }],
    ['invalid_recipient', { kind: 'invalid_recipient', status: 400, providerCode: 'error-room-archived' }],
    ['auth', { kind: 'auth', status: 401, message: expect.stringContaining('You must be logged in to do this.') }],
  ])('a scripted %s failure', async (outcome, expected) => {
    fake.failNext(outcome);
    const error = await providerFailure(provider.send(message(), credentials(), sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.authToken);
  });

  it('a 429 waits until X-RateLimit-Reset', async () => {
    fake.failNext('rate_limited');
    const error = await providerFailure(provider.send(message(), credentials(), sendContext()));
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(2_000);
  });

  it('maps what the fake refuses: a wrong token is auth, an unknown room an invalid recipient', async () => {
    expect(await providerFailure(provider.send(message(), { ...credentials(), token: 'wrong' }, sendContext()))).toMatchObject({ kind: 'auth', status: 401 });
    expect(await providerFailure(provider.send(message('nope'), credentials(), sendContext()))).toMatchObject({
      kind: 'invalid_recipient',
      providerCode: 'error-invalid-room',
    });
    expect(fake.refusals.map((r) => r.reason)).toEqual(['bad token or user id', 'unknown room nope']);
  });

  it('missing credentials, server URL or room fail before any request', async () => {
    const missing = await providerFailure(provider.send(message(), {}, sendContext()));
    expect(missing).toMatchObject({ kind: 'invalid_request', message: 'The rocket-chat integration needs credentials.token, credentials.user' });
    expect(await providerFailure(provider.send({ ...message(), webhookUrl: undefined }, credentials(), sendContext()))).toMatchObject({
      kind: 'invalid_recipient',
    });
    expect(await providerFailure(provider.send({ ...message(), channel: undefined }, credentials(), sendContext()))).toMatchObject({
      kind: 'invalid_recipient',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('the server URL passes the SSRF guard', async () => {
    const strict = new RocketChatProvider(createProviderRuntime({ allowPrivateNetworkTargets: false }));
    expect(await providerFailure(strict.send(message(), credentials(), sendContext()))).toMatchObject({ kind: 'invalid_request' });
    expect(fake.requests).toHaveLength(0);
  });
});
