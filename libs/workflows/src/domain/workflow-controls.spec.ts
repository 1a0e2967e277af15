import { buildSteps } from './step-rules';
import { controlValuesOf, effectivePreferences, preferencesOfSettings, settingsOfPreferences, stepDraftFromControls } from './workflow-controls';

describe('v2 controls and the steps the engine runs', () => {
  const build = (type: Parameters<typeof stepDraftFromControls>[0]['type'], controlValues: Record<string, unknown>) =>
    buildSteps([stepDraftFromControls({ name: 'Step', type, controlValues })])[0];

  it('turns in-app controls into the template: body, subject, avatar, both actions with their links, the redirect, data', () => {
    const controls = {
      body: 'Hi {{subscriber.firstName}}',
      subject: 'Welcome',
      avatar: 'https://example.com/a.png',
      primaryAction: { label: 'Open', redirect: { url: 'https://example.com/open', target: '_blank' } },
      secondaryAction: { label: 'Later' },
      redirect: { url: 'https://example.com/home', target: '_self' },
      data: { orderId: '{{payload.orderId}}' },
      skip: { '==': [{ var: 'payload.muted' }, true] },
    };
    const step = build('in_app', controls);
    expect(step.template).toMatchObject({
      type: 'in_app',
      content: 'Hi {{subscriber.firstName}}',
      subject: 'Welcome',
      avatar: 'https://example.com/a.png',
      data: { orderId: '{{payload.orderId}}' },
      cta: {
        type: 'redirect',
        data: { url: 'https://example.com/home', target: '_self' },
        action: {
          buttons: [
            { type: 'primary', content: 'Open', redirect: { url: 'https://example.com/open', target: '_blank' } },
            { type: 'secondary', content: 'Later' },
          ],
        },
      },
    });
    expect(step.skip).toEqual(controls.skip);
    // Read back as written.
    expect(controlValuesOf(step)).toEqual(controls);
    // The same step written through v1 (no controls kept) reads back from its template.
    const { controlValues: _c, skip: _s, ...v1 } = step;
    expect(controlValuesOf(v1)).toEqual({ ...controls, skip: undefined, disableOutputSanitization: false, secondaryAction: { label: 'Later' } });
  });

  it('email: HTML or block body, from, reply-to, preheader, no layout; provider defaults drop the step’s from', () => {
    const step = build('email', {
      subject: 'Order {{payload.id}}',
      body: '<p>Hi</p>',
      editorType: 'html',
      from: { email: 'shop@example.com', name: 'Shop' },
      replyTo: 'help@example.com',
      preheader: 'Your order',
      layoutId: null,
    });
    expect(step.template).toMatchObject({
      subject: 'Order {{payload.id}}',
      content: '<p>Hi</p>',
      contentType: 'customHtml',
      editorType: 'html',
      senderName: 'Shop',
      senderEmail: 'shop@example.com',
      replyTo: 'help@example.com',
      preheader: 'Your order',
      layoutId: null,
    });
    const defaults = build('email', { subject: 's', body: '{"type":"doc"}', from: { email: 'x@example.com' }, useProviderDefaults: true });
    expect(defaults.template).toMatchObject({ contentType: 'editor', editorType: 'block' });
    expect(defaults.template).not.toHaveProperty('senderEmail');
  });

  it('sms, chat and push bodies, push subject as title', () => {
    expect(build('sms', { body: 'code {{payload.code}}' }).template).toMatchObject({ content: 'code {{payload.code}}' });
    expect(build('chat', { body: 'hello' }).template).toMatchObject({ content: 'hello' });
    expect(build('push', { subject: 'Title', body: 'Body' }).template).toMatchObject({ title: 'Title', content: 'Body' });
  });

  it('delay and digest controls as metadata: regular, timed (cron), a look-back window as the backoff digest', () => {
    expect(build('delay', { type: 'regular', amount: 5, unit: 'minutes' }).metadata).toEqual({ type: 'regular', amount: 5, unit: 'minutes' });
    expect(build('delay', { type: 'timed', cron: '0 9 * * 1' }).metadata).toEqual({ type: 'timed', cron: '0 9 * * 1' });
    expect(build('digest', { type: 'regular', amount: 1, unit: 'hours', digestKey: 'payload.postId' }).metadata).toEqual({
      type: 'regular',
      amount: 1,
      unit: 'hours',
      digestKey: 'payload.postId',
    });
    const lookBack = build('digest', { amount: 10, unit: 'minutes', lookBackWindow: { amount: 5, unit: 'minutes' } });
    expect(lookBack.metadata).toEqual({ type: 'backoff', amount: 10, unit: 'minutes', backoff: true, backoffAmount: 5, backoffUnit: 'minutes' });
    const { controlValues: _c, ...v1 } = lookBack;
    expect(controlValuesOf(v1)).toEqual({ type: 'regular', amount: 10, unit: 'minutes', lookBackWindow: { amount: 5, unit: 'minutes' } });
    expect(build('digest', { type: 'timed', cron: '0 0 * * *' }).metadata).toEqual({ type: 'timed', timed: { cronExpression: '0 0 * * *' } });
  });

  it('throttle and HTTP request controls are their metadata', () => {
    expect(build('throttle', { amount: 1, unit: 'minutes', threshold: 3, throttleKey: '{{payload.key}}' }).metadata).toEqual({
      type: 'fixed',
      amount: 1,
      unit: 'minutes',
      threshold: 3,
      throttleKey: '{{payload.key}}',
    });
    const http = build('http_request', { method: 'POST', url: 'https://example.com', headers: [{ key: 'X-A', value: '1' }], continueOnFailure: true });
    expect(http.metadata).toEqual({ method: 'POST', url: 'https://example.com', headers: [{ key: 'X-A', value: '1' }], continueOnFailure: true });
  });
});

describe('v2 preferences', () => {
  it('set the channel switches (unlisted channels follow all.enabled) and criticality (all.readOnly)', () => {
    expect(settingsOfPreferences({ all: { enabled: false, readOnly: true }, channels: { email: { enabled: true } } })).toEqual({
      critical: true,
      preferenceSettings: { in_app: false, email: true, sms: false, chat: false, push: false },
    });
  });

  it('take the API’s layer first, then the workflow’s, then every channel on', () => {
    const user = { all: { enabled: false }, channels: {} };
    const workflow = { all: { enabled: true }, channels: { sms: { enabled: false } } };
    expect(effectivePreferences({ user, workflow })).toBe(user);
    expect(effectivePreferences({ user: null, workflow })).toBe(workflow);
    expect(effectivePreferences(undefined).all).toEqual({ enabled: true, readOnly: false });
  });

  it('read v1 switches and criticality as v2 preferences', () => {
    expect(preferencesOfSettings({ critical: true, preferenceSettings: { in_app: true, email: false, sms: true, chat: true, push: true } })).toEqual({
      all: { enabled: true, readOnly: true },
      channels: { in_app: { enabled: true }, email: { enabled: false }, sms: { enabled: true }, chat: { enabled: true }, push: { enabled: true } },
    });
  });
});
