import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { InfobipSmsFake } from '../../../../../test/fakes/sms/infobip-sms.fake';
import { describeSmsContract, SMS, withCannedAnswer } from '../../../../../test/fakes/sms/sms-contract';
import { INFOBIP_SMS_CREDENTIALS, InfobipSmsProvider } from './infobip-sms.provider';

describe('InfobipSmsProvider against an Infobip fake', () => {
  const fake = new InfobipSmsFake();
  const provider = new InfobipSmsProvider(testRuntime());
  const credentials = () => ({ baseUrl: fake.origin, apiKey: fake.apiKey, from: 'ACME' });

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends one advanced text Infobip takes, with our id as its messageId', async () => {
    const result = await provider.send(
      SMS,
      credentials(),
      sendContext('msg-1', { overrides: { statusCallback: 'https://hooks.example.com/ib', validityPeriod: '60' } }),
    );
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({
      messages: [
        {
          from: 'ACME',
          destinations: [{ to: '15551234567', messageId: 'msg-1' }],
          text: 'Your code is 1234',
          notifyUrl: 'https://hooks.example.com/ib',
          validityPeriod: 60,
        },
      ],
    });
    expect(result).toMatchObject({ id: 'msg-1', raw: { status: 200, messageStatus: 'PENDING_ACCEPTED' } });
  });

  it("the message's from wins; passthrough reaches the body", async () => {
    await provider.send({ ...SMS, from: '+15550001111' }, credentials(), sendContext('m', { passthrough: { body: { bulkId: 'campaign-7' } } }));
    expect(fake.accepted[0].json()).toMatchObject({ bulkId: 'campaign-7', messages: [{ from: '+15550001111' }] });
  });

  it('a destination Infobip rejects (HTTP 200, REJECTED group) is invalid_recipient', async () => {
    const error = await providerFailure(provider.send({ ...SMS, to: '+0' }, credentials(), sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 200, providerCode: 'REJECTED_INVALID_DESTINATION', target: '+0' });
    expect(error.message).toBe('Infobip refused the message (code REJECTED_INVALID_DESTINATION): Invalid destination address');
  });

  it('a duplicate of our message id means an earlier attempt was taken: the send counts as done', async () => {
    const answer = {
      status: 200,
      body: { bulkId: 'b', messages: [{ to: '15551234567', messageId: 'msg-9', status: { groupName: 'REJECTED', name: 'REJECTED_DUPLICATE_MESSAGE_ID' } }] },
    };
    const result = await withCannedAnswer(answer, (origin) => provider.send(SMS, { ...credentials(), baseUrl: origin }, sendContext('msg-9')));
    expect(result).toMatchObject({ id: 'msg-9', raw: { duplicate: true } });
  });

  it('a 400 whose validation errors are all about the destination is invalid_recipient', async () => {
    const answer = {
      status: 400,
      body: {
        requestError: {
          serviceException: {
            messageId: 'BAD_REQUEST',
            text: 'Bad request',
            validationErrors: { 'messages[0].destinations[0].to': ['invalid destination address'] },
          },
        },
      },
    };
    const error = await withCannedAnswer(answer, (origin) => providerFailure(provider.send(SMS, { ...credentials(), baseUrl: origin }, sendContext())));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 400, providerCode: 'BAD_REQUEST' });
    expect(error.message).toContain('messages[0].destinations[0].to: invalid destination address');
  });

  describe('over HTTPS, with the account host given without a scheme', () => {
    const secure = new InfobipSmsFake();
    beforeAll(() => secure.start('https'));
    afterAll(() => secure.close());

    it('adds https:// and trusts the runtime CA', async () => {
      await provider.send(SMS, { ...credentials(), baseUrl: `127.0.0.1:${secure.port}` }, sendContext());
      expect(secure.accepted).toHaveLength(1);
    });
  });

  describeSmsContract({
    providerId: 'infobip-sms',
    schema: INFOBIP_SMS_CREDENTIALS,
    fake,
    createProvider: (runtime) => new InfobipSmsProvider(runtime),
    credentials,
    wrongCredentials: { credentials: () => ({ ...credentials(), apiKey: 'wrong' }), refusal: 'bad App key' },
    outcomes: {
      rate_limited: { kind: 'rate_limited', status: 429, providerCode: 'TOO_MANY_REQUESTS', retryAfterMs: 5_000 },
      unavailable: { kind: 'retryable', status: 500 },
      auth: { kind: 'auth', status: 401, providerCode: 'UNAUTHORIZED' },
      invalid_recipient: { kind: 'invalid_recipient', status: 200, providerCode: 'REJECTED_DESTINATION' },
      permanent: { kind: 'permanent', status: 200, providerCode: 'REJECTED_NOT_ENOUGH_CREDITS' },
    },
    check: { failure: 'Invalid login details' },
  });
});
