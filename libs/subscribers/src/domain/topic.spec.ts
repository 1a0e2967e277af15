import { subscriptionAllows } from './topic';

describe('subscriptionAllows', () => {
  const payload = { tier: 'gold', count: 3, user: { plan: 'pro' } };

  it('lets a trigger through when the subscription has no preference for the workflow', () => {
    expect(subscriptionAllows(undefined, payload)).toBe(true);
  });

  it('follows enabled when there is no condition', () => {
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true }, payload)).toBe(true);
    expect(subscriptionAllows({ workflowId: 'wf', enabled: false }, payload)).toBe(false);
  });

  it('decides by the condition on the payload when there is one, whatever enabled says', () => {
    const gold = { '==': [{ var: 'payload.tier' }, 'gold'] };
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true, condition: gold }, payload)).toBe(true);
    expect(subscriptionAllows({ workflowId: 'wf', enabled: false, condition: gold }, payload)).toBe(true);
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true, condition: gold }, { tier: 'silver' })).toBe(false);
    const nested = { and: [{ '>': [{ var: 'payload.count' }, 2] }, { in: [{ var: 'payload.user.plan' }, ['pro', 'team']] }] };
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true, condition: nested }, payload)).toBe(true);
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true, condition: nested }, { ...payload, count: 1 })).toBe(false);
  });

  it('takes only exactly true from a condition: a truthy value or an error is a no', () => {
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true, condition: { var: 'payload.tier' } }, payload)).toBe(false);
    expect(subscriptionAllows({ workflowId: 'wf', enabled: true, condition: { no_such_operator: [1] } }, payload)).toBe(false);
  });
});
