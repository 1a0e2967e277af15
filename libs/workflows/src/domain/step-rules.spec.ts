import { StepDraft, buildSteps, previousStepFilterErrors, validateSteps } from './step-rules';
import { stepIdentifiers } from './workflow';

const digest = (metadata: any): StepDraft => ({ template: { type: 'digest' }, metadata });
const delay = (metadata: any): StepDraft => ({ template: { type: 'delay' }, metadata });

describe('validateSteps', () => {
  it('accepts well-formed channel, digest and delay steps', () => {
    expect(
      validateSteps([
        { template: { type: 'email', subject: 's', content: 'c' } },
        digest({ type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId' }),
        digest({ type: 'backoff', amount: 5, unit: 'minutes', backoffAmount: 1, backoffUnit: 'minutes' }),
        digest({ type: 'timed', unit: 'days', timed: { atTime: '09:30' } }),
        digest({ type: 'timed', timed: { cronExpression: '0 9 * * 1-5' } }),
        delay({ type: 'regular', amount: 1, unit: 'hours' }),
        delay({ type: 'scheduled', delayPath: 'sendAt' }),
        delay({ type: 'dynamic', dynamicKey: 'payload.sendAt' }),
        delay({ type: 'dynamic', dynamicKey: 'payload.schedule.wait' }),
      ]),
    ).toEqual({});
  });

  it('refuses a dynamic delay whose dynamicKey is missing or not a payload path', () => {
    for (const dynamicKey of [undefined, '', 'sendAt', 'payload', 'payload.', 'payload..at', 'payload.send at', 'subscriber.data.at', 42]) {
      const errors = validateSteps([delay({ type: 'dynamic', dynamicKey })]);
      expect({ dynamicKey, fields: Object.keys(errors) }).toEqual({ dynamicKey, fields: ['steps.0.metadata.dynamicKey'] });
    }
  });

  it('keeps dynamicKey on a delay step it builds', () => {
    const [step] = buildSteps([delay({ type: 'dynamic', dynamicKey: 'payload.sendAt', digestKey: 'dropped' })]);
    expect(step.metadata).toEqual({ type: 'dynamic', dynamicKey: 'payload.sendAt' });
  });

  it('builds throttle and HTTP request steps with the fields of their type', () => {
    const [throttle, http] = buildSteps([
      { name: 'Limit', stepId: 'limit', template: { type: 'throttle' }, metadata: { threshold: 3, amount: 1, unit: 'minutes', digestKey: 'dropped' } },
      { template: { type: 'http_request' }, skip: { '==': [1, 2] }, metadata: { method: 'POST', url: 'https://example.com/hook', body: '{"a":1}' } },
    ]);
    expect(throttle).toMatchObject({ name: 'Limit', stepId: 'limit', metadata: { type: 'fixed', threshold: 3, amount: 1, unit: 'minutes' } });
    expect(throttle.metadata).not.toHaveProperty('digestKey');
    expect(http).toMatchObject({
      name: 'HTTP Request',
      skip: { '==': [1, 2] },
      metadata: { method: 'POST', url: 'https://example.com/hook', headers: [], body: '{"a":1}' },
    });
  });

  it('names each missing field by its path', () => {
    const errors = validateSteps([
      digest(undefined),
      digest({ type: 'regular', unit: 'minutes' }),
      digest({ type: 'backoff', amount: 1, unit: 'hours' }),
      digest({ type: 'timed', timed: { cronExpression: 'not a cron' } }),
      delay({ type: 'regular', amount: -1 }),
      delay({ type: 'scheduled' }),
      delay({ type: 'timed' }),
      delay({ type: 'weekly' }),
      { template: { type: 'throttle' }, metadata: { type: 'fixed', threshold: 0, amount: 1, unit: 'seconds' } },
      { template: { type: 'throttle' }, metadata: { type: 'dynamic', threshold: 2 } },
      // what a caller may send, past the DTO's checks
      JSON.parse('{"template":{"type":"http_request"},"metadata":{"method":"FETCH","url":" ","headers":[{"key":"a"}]}}') as StepDraft,
    ]);
    expect(Object.keys(errors).sort()).toEqual(
      [
        'steps.0.metadata',
        'steps.1.metadata.amount',
        'steps.2.metadata.backoffAmount',
        'steps.2.metadata.backoffUnit',
        'steps.3.metadata.timed.cronExpression',
        'steps.4.metadata.amount',
        'steps.4.metadata.unit',
        'steps.5.metadata.delayPath',
        'steps.6.metadata.cron',
        'steps.7.metadata.type',
        'steps.8.metadata.threshold',
        'steps.8.metadata.unit',
        'steps.9.metadata.dynamicKey',
        'steps.10.metadata.method',
        'steps.10.metadata.url',
        'steps.10.metadata.headers',
      ].sort(),
    );
    expect(errors['steps.1.metadata.amount'].value).toBe('No Value Recorded');
  });

  it('requires variants to have their step type', () => {
    const errors = validateSteps([{ template: { type: 'email' }, variants: [{ template: { type: 'sms' } }] }]);
    expect(errors['steps.0.variants.0.template.type'].messages[0]).toMatch(/email/);
  });
});

describe('buildSteps', () => {
  it('fills defaults, drops metadata from channel steps and keeps ids of known steps', () => {
    const [first] = buildSteps([{ template: { type: 'sms', content: 'x' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }]);
    expect(first).toMatchObject({ name: 'SMS', active: true, shouldStopOnFail: false, filters: [], variants: [] });
    expect(first.metadata).toBeUndefined();
    expect(first.id).toMatch(/^[0-9a-f]{24}$/);
    const [again, added] = buildSteps(
      [
        { id: first.id, template: { type: 'sms', content: 'y' } },
        { template: { type: 'delay' }, metadata: { amount: 2, unit: 'days' } },
      ],
      [first],
    );
    expect(again).toMatchObject({ id: first.id, uuid: first.uuid, template: { id: first.template.id, content: 'y' } });
    expect(added.metadata).toEqual({ type: 'regular', amount: 2, unit: 'days' });
  });
});

describe('previous-step filters', () => {
  const previous = (stepType: 'read' | 'unread' | 'seen' | 'unseen', step?: string) => [
    { value: 'AND' as const, children: [{ on: 'previousStep' as const, stepType, ...(step === undefined ? {} : { step }) }] },
  ];
  const inApp = (extra: Partial<StepDraft> = {}): StepDraft => ({ template: { type: 'in_app', content: 'x' }, ...extra });

  it('keeps the step a part names, and names the nearest channel step before when it names none', () => {
    const steps = buildSteps([
      inApp({ uuid: 'first' }),
      { template: { type: 'email', subject: 's', content: 'c' }, uuid: 'second' },
      delay({ type: 'regular', amount: 1, unit: 'hours' }),
      inApp({ filters: previous('unread') }),
      inApp({ filters: previous('seen', 'first'), variants: [inApp({ filters: previous('read') })] }),
    ]);
    expect(steps[3].filters[0].children).toEqual([{ on: 'previousStep', step: 'second', stepType: 'unread' }]);
    expect(steps[4].filters[0].children).toEqual([{ on: 'previousStep', step: 'first', stepType: 'seen' }]);
    // a variant's "before" is its step's
    expect(steps[4].variants[0].filters[0].children).toEqual([{ on: 'previousStep', step: steps[3].uuid, stepType: 'read' }]);
    expect(previousStepFilterErrors(steps)).toEqual({});
  });

  it('refuses a part naming no earlier channel step: none before, a later one, a delay, an unknown uuid', () => {
    const steps = buildSteps([
      inApp({ filters: previous('read') }),
      { ...delay({ type: 'regular', amount: 1, unit: 'hours' }), uuid: 'the-delay' },
      inApp({ uuid: 'third', filters: previous('read', 'fourth') }),
      inApp({ uuid: 'fourth', filters: previous('read', 'the-delay') }),
      inApp({ filters: [{ value: 'OR', children: [{ on: 'payload', field: 'a', value: '1', operator: 'EQUAL' }, ...previous('read', 'nope')[0].children] }] }),
      inApp({ variants: [inApp({ filters: previous('read', 'nope') })] }),
    ]);
    const errors = previousStepFilterErrors(steps);
    expect(Object.keys(errors).sort()).toEqual(
      [
        'steps.0.filters.0.children.0.step',
        'steps.2.filters.0.children.0.step',
        'steps.3.filters.0.children.0.step',
        'steps.4.filters.0.children.1.step',
        'steps.5.variants.0.filters.0.children.0.step',
      ].sort(),
    );
    expect(errors['steps.0.filters.0.children.0.step'].value).toBe('No Value Recorded');
    expect(errors['steps.2.filters.0.children.0.step'].value).toBe('fourth');
  });
});

describe('stepIdentifiers', () => {
  it('keeps a step its own stepId, and gives the others the slug of their name, unique in the workflow', () => {
    const ids = stepIdentifiers([
      { id: 'a', name: 'Send Email' },
      { id: 'b', name: 'send email', stepId: 'send-email-2' },
      { id: 'c', name: 'Send email!' },
      { id: 'd', name: '' },
    ]);
    expect([...ids.entries()]).toEqual([
      ['a', 'send-email'],
      ['b', 'send-email-2'],
      ['c', 'send-email-3'],
      ['d', 'step'],
    ]);
  });
});
