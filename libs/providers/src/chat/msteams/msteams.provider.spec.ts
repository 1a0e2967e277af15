import { expectNoSecrets } from '../../../../../test/fakes/chat/chat-fake-kit';
import { MsTeamsFake } from '../../../../../test/fakes/chat/msteams.fake';
import { providerFailure, sendContext, testRuntime } from '../../../../../test/fakes/provider-test-kit';
import { VendorOutcome } from '../../../../../test/fakes/vendor-fake';
import { MsTeamsProvider, teamsPayload } from './msteams.provider';

const adaptiveCard = { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text: 'Hello' }] };
const messageCard = { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: 'Deploy', text: 'Deploy done' };
const envelope = { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: adaptiveCard }] };

describe('teamsPayload', () => {
  it.each<[string, string, unknown, object]>([
    ['plain text', 'Hello Ada', undefined, { text: 'Hello Ada' }],
    ['a MessageCard as content', JSON.stringify(messageCard), undefined, messageCard],
    ['an Adaptive Card as content, wrapped', JSON.stringify(adaptiveCard), undefined, envelope],
    ['an envelope as content', JSON.stringify(envelope), undefined, envelope],
    ['overrides.card (object) over the content', 'Hello', adaptiveCard, envelope],
    ['overrides.card as JSON text', 'Hello', JSON.stringify(messageCard), messageCard],
    ['text that only looks like JSON', '{not json}', undefined, { text: '{not json}' }],
  ])('%s', (_case, content, card, expected) => {
    expect(teamsPayload(content, card)).toEqual(expected);
  });
});

describe('MsTeamsProvider against a Teams fake', () => {
  const fake = new MsTeamsFake();
  const provider = new MsTeamsProvider(testRuntime());

  beforeAll(() => fake.start());
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts text to a connector and takes the id from request-id', async () => {
    const result = await provider.send({ id: 'msg-1', content: 'Hello Ada', webhookUrl: fake.connectorUrl }, {}, sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual({ text: 'Hello Ada' });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('posts an Adaptive Card to a Workflows webhook in the envelope it requires (202, run id)', async () => {
    const result = await provider.send({ id: 'msg-1', content: JSON.stringify(adaptiveCard), webhookUrl: fake.workflowUrl }, {}, sendContext());
    expect(fake.refusals).toEqual([]);
    expect(fake.accepted).toHaveLength(1);
    expect(fake.accepted[0].json()).toEqual(envelope);
    expect(fake.accepted[0].query.get('sig')).toBe(fake.signature);
    expect(result.id).toMatch(/^08584\d+CU00$/);
  });

  it('plain text to a Workflows webhook is refused by it as Teams would (invalid request)', async () => {
    const error = await providerFailure(provider.send({ id: 'm', content: 'plain', webhookUrl: fake.workflowUrl }, {}, sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, providerCode: 'InvalidRequestContent' });
  });

  it.each<[string, VendorOutcome, object]>([
    ['connector', 'rate_limited', { kind: 'rate_limited', status: 200 }],
    ['connector', 'unavailable', { kind: 'retryable', status: 200 }],
    ['connector', 'permanent', { kind: 'invalid_request', status: 400 }],
    ['connector', 'invalid_recipient', { kind: 'invalid_recipient', status: 200 }],
    ['connector', 'auth', { kind: 'invalid_recipient', status: 403 }],
    ['workflow', 'rate_limited', { kind: 'rate_limited', status: 429, retryAfterMs: 7_000 }],
    ['workflow', 'unavailable', { kind: 'retryable', status: 503 }],
    ['workflow', 'permanent', { kind: 'invalid_request', status: 400 }],
    ['workflow', 'invalid_recipient', { kind: 'invalid_recipient', status: 404, providerCode: 'WorkflowNotFound' }],
    ['workflow', 'auth', { kind: 'invalid_recipient', status: 401, providerCode: 'DirectApiAuthorizationRequired' }],
  ])('a scripted %s %s failure', async (kind, outcome, expected) => {
    fake.failNext(outcome);
    const webhookUrl = kind === 'workflow' ? fake.workflowUrl : fake.connectorUrl;
    const error = await providerFailure(provider.send({ id: 'm', content: JSON.stringify(adaptiveCard), webhookUrl }, {}, sendContext()));
    expect(error).toMatchObject(expected);
    expectNoSecrets(error, fake.signature, fake.connectorPath);
  });

  it('a 200 relaying a Teams failure carries its text', async () => {
    fake.failNext('rate_limited');
    const error = await providerFailure(provider.send({ id: 'm', content: 'hi', webhookUrl: fake.connectorUrl }, {}, sendContext()));
    expect(error.message).toContain('Microsoft Teams endpoint returned HTTP error 429');
  });

  it('a wrong signature is an invalid recipient and the signature never shows', async () => {
    const webhookUrl = fake.workflowUrl.replace(fake.signature, 'wrong-signature-value');
    const error = await providerFailure(provider.send({ id: 'm', content: JSON.stringify(adaptiveCard), webhookUrl }, {}, sendContext()));
    expect(error).toMatchObject({ kind: 'invalid_recipient', status: 401, providerCode: 'DirectApiInvalidAuthorizationSignature' });
    expectNoSecrets(error, 'wrong-signature-value');
  });

  it('a missing webhook URL fails before any request', async () => {
    expect(await providerFailure(provider.send({ id: 'm', content: 'hi' }, {}, sendContext()))).toMatchObject({ kind: 'invalid_recipient' });
    expect(fake.requests).toHaveLength(0);
  });
});
