import { SelectableIntegration, selectCredentialIntegrations, selectIntegration } from './select-integration';

const integration = (id: string, conditions: SelectableIntegration['conditions'] = [], primary = false): SelectableIntegration => ({
  id,
  identifier: `${id}-identifier`,
  channel: 'chat',
  primary,
  conditions,
});
const onPlan = (plan: string): SelectableIntegration['conditions'] => [{ value: 'AND', children: [{ on: 'tenant', field: 'data.plan', operator: 'EQUAL', value: plan }] }];

describe('selectIntegration', () => {
  it('prefers a tenant match, else the primary among the unconditional ones', () => {
    const active = [integration('pro', onPlan('pro')), integration('plain'), integration('main', [], true)];
    expect(selectIntegration(active, 'email', {}, { data: { plan: 'pro' } })?.id).toBe('pro');
    expect(selectIntegration(active, 'email', {}, { data: { plan: 'free' } })?.id).toBe('main');
    expect(selectIntegration(active, 'email', { email: { integrationIdentifier: 'plain-identifier' } }, undefined)?.id).toBe('plain');
  });
});

describe('selectCredentialIntegrations', () => {
  const active = [integration('pro', onPlan('pro')), integration('plain'), integration('other')];
  const holdsAll = () => true;

  it('keeps the tenant-matching integrations when the subscriber holds an entry for one', () => {
    expect(selectCredentialIntegrations(active, 'chat', {}, { data: { plan: 'pro' } }, holdsAll).map((i) => i.id)).toEqual(['pro']);
  });

  it('falls back to every unconditional integration the subscriber holds', () => {
    expect(selectCredentialIntegrations(active, 'chat', {}, { data: { plan: 'free' } }, holdsAll).map((i) => i.id)).toEqual(['plain', 'other']);
    expect(selectCredentialIntegrations(active, 'chat', {}, undefined, holdsAll).map((i) => i.id)).toEqual(['plain', 'other']);
    expect(selectCredentialIntegrations(active, 'chat', {}, { data: { plan: 'pro' } }, (i) => i.id !== 'pro').map((i) => i.id)).toEqual(['plain', 'other']);
  });

  it('honours an integrationIdentifier override', () => {
    expect(selectCredentialIntegrations(active, 'chat', { chat: { integrationIdentifier: 'other-identifier' } }, { data: { plan: 'pro' } }, holdsAll).map((i) => i.id)).toEqual(['other']);
  });
});
