import { failoverChain, SelectableIntegration, selectCredentialIntegrations, selectIntegration, standbyIntegrations } from './select-integration';

const integration = (id: string, conditions: SelectableIntegration['conditions'] = [], primary = false, fallbacks: string[] = []): SelectableIntegration => ({
  id,
  identifier: `${id}-identifier`,
  channel: 'chat',
  primary,
  conditions,
  fallbacks,
});
const on = (source: string, field: string, operator: string, value: string): SelectableIntegration['conditions'] => [
  { value: 'AND', children: [{ on: source, field, operator, value }] },
];
const onPlan = (plan: string) => on('tenant', 'data.plan', 'EQUAL', plan);
const tenant = (plan: string) => ({ tenant: { data: { plan } } });

describe('selectIntegration', () => {
  it('prefers a tenant match, else the primary among the unconditional ones', () => {
    const active = [integration('pro', onPlan('pro')), integration('plain'), integration('main', [], true)];
    expect(selectIntegration(active, 'email', {}, tenant('pro'))?.id).toBe('pro');
    expect(selectIntegration(active, 'email', {}, tenant('free'))?.id).toBe('main');
    expect(selectIntegration(active, 'email', {}, {})?.id).toBe('main');
    expect(selectIntegration(active, 'email', { email: { integrationIdentifier: 'plain-identifier' } }, {})?.id).toBe('plain');
  });

  it('matches conditions on the subscriber and on the payload too (the interface: on subscriber, LARGER)', () => {
    const active = [
      integration('big-spender', on('subscriber', 'data.spend', 'LARGER', '1000')),
      integration('eu', on('payload', 'region', 'EQUAL', 'eu')),
      integration('main', [], true),
    ];
    expect(selectIntegration(active, 'email', {}, { subscriber: { data: { spend: 5000 } } })?.id).toBe('big-spender');
    expect(selectIntegration(active, 'email', {}, { subscriber: { data: { spend: 10 } }, payload: { region: 'eu' } })?.id).toBe('eu');
    expect(selectIntegration(active, 'email', {}, { subscriber: { data: { spend: 10 } }, payload: { region: 'us' } })?.id).toBe('main');
  });
});

describe('selectCredentialIntegrations', () => {
  const active = [integration('pro', onPlan('pro')), integration('plain'), integration('other')];
  const holdsAll = () => true;

  it('keeps the matching integrations when the subscriber holds an entry for one', () => {
    expect(selectCredentialIntegrations(active, 'chat', {}, tenant('pro'), holdsAll).map((i) => i.id)).toEqual(['pro']);
  });

  it('falls back to every unconditional integration the subscriber holds', () => {
    expect(selectCredentialIntegrations(active, 'chat', {}, tenant('free'), holdsAll).map((i) => i.id)).toEqual(['plain', 'other']);
    expect(selectCredentialIntegrations(active, 'chat', {}, {}, holdsAll).map((i) => i.id)).toEqual(['plain', 'other']);
    expect(selectCredentialIntegrations(active, 'chat', {}, tenant('pro'), (i) => i.id !== 'pro').map((i) => i.id)).toEqual(['plain', 'other']);
  });

  it('honours an integrationIdentifier override', () => {
    expect(
      selectCredentialIntegrations(active, 'chat', { chat: { integrationIdentifier: 'other-identifier' } }, tenant('pro'), holdsAll).map((i) => i.id),
    ).toEqual(['other']);
  });
});

describe('failoverChain', () => {
  it('follows fallbacks depth first, skipping inactive ones and never visiting one twice', () => {
    const a = integration('a', [], false, ['b-identifier', 'gone-identifier', 'c-identifier']);
    const b = integration('b', [], false, ['d-identifier', 'a-identifier']);
    const c = integration('c', [], false, ['b-identifier']);
    const d = integration('d');
    expect(failoverChain(a, [a, b, c, d]).map((i) => i.id)).toEqual(['a', 'b', 'd', 'c']);
    expect(failoverChain(d, [a, b, c, d]).map((i) => i.id)).toEqual(['d']);
  });
});

describe('standbyIntegrations', () => {
  const ranked = (id: string, priority: number, primary = false) => ({ ...integration(id, [], primary), priority });

  it("is the channel's other unconditional integrations: the primary, then by priority, then newest", () => {
    const held = ranked('held', 3);
    // Newest first, as the store answers.
    const active = [ranked('newer', 1), held, ranked('conditional', 9), ranked('older', 1), ranked('high', 2), ranked('main', 0, true)];
    active[2].conditions = onPlan('pro');
    expect(standbyIntegrations([held], active, 'chat', {}).map((i) => i.id)).toEqual(['main', 'high', 'newer', 'older']);
  });

  it('is none when the held integration has fallbacks of its own, or the trigger named the integration', () => {
    const held = integration('held', [], false, ['backup-identifier']);
    const active = [held, integration('backup'), integration('other')];
    expect(standbyIntegrations([held, active[1]], active, 'chat', {})).toEqual([]);
    const alone = integration('alone');
    expect(standbyIntegrations([alone], [alone, integration('other')], 'chat', { chat: { integrationIdentifier: 'alone-identifier' } })).toEqual([]);
    expect(standbyIntegrations([alone], [alone, integration('other')], 'chat', {}).map((i) => i.id)).toEqual(['other']);
  });
});
