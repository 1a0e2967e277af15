import { recipientsOf } from './trigger';

describe('recipientsOf', () => {
  it('reads the recipients a trigger record keeps parsed as they are', () => {
    const to = { subscribers: [{ subscriberId: 'ada', email: 'ada@example.com' }], topics: [{ topicKey: 'news', exclude: ['bob'] }] };
    const actor = { subscriberId: 'cy' };
    const tenant = { identifier: 'acme', name: 'Acme' };
    expect(recipientsOf({ to, actor, tenant })).toEqual({ to, actor, tenant });
  });

  it('parses a record an earlier version kept as the trigger gave them: `to` an array, actor and tenant as in the request', () => {
    expect(
      recipientsOf({
        to: ['ada', { subscriberId: 'bob', firstName: 'Bob' }, { type: 'Topic', topicKey: 'news' }],
        actor: 'cy',
        tenant: 'acme',
      }),
    ).toEqual({
      to: { subscribers: [{ subscriberId: 'ada' }, { subscriberId: 'bob', firstName: 'Bob' }], topics: [{ topicKey: 'news', exclude: [] }] },
      actor: { subscriberId: 'cy' },
      tenant: { identifier: 'acme' },
    });
    expect(recipientsOf({ to: [] })).toEqual({ to: { subscribers: [], topics: [] } });
  });
});
