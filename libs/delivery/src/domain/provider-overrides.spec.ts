import { providerOverrides } from './provider-overrides';
import { redactSecrets } from './redact';

describe('providerOverrides', () => {
  it('layers channel, legacy provider key, providers.<id> and steps.<step>.providers.<id>, later winning', () => {
    const overrides = {
      email: { integrationIdentifier: 'x', replyTo: 'a@example.com', ipPoolName: 'channel' },
      sendgrid: { ipPoolName: 'legacy', categories: ['a'] },
      providers: { sendgrid: { ipPoolName: 'providers', _passthrough: { body: { asm: { group_id: 1 } }, headers: { 'x-a': '1' } } } },
      steps: {
        'welcome-email': { providers: { sendgrid: { ipPoolName: 'step', _passthrough: { body: { asm: { groups_to_display: [1] } } } } } },
        other: { providers: { sendgrid: { ipPoolName: 'other-step' } } },
      },
    };
    expect(providerOverrides(overrides, 'email', 'sendgrid', ['id-1', 'welcome-email'])).toEqual({
      data: { replyTo: 'a@example.com', ipPoolName: 'step', categories: ['a'] },
      passthrough: { body: { asm: { group_id: 1, groups_to_display: [1] } }, headers: { 'x-a': '1' } },
    });
    expect(providerOverrides(overrides, 'email', 'ses', ['welcome-email'])).toEqual({ data: { replyTo: 'a@example.com', ipPoolName: 'channel' } });
    expect(providerOverrides({}, 'sms', 'twilio', [])).toEqual({ data: {} });
  });
});

describe('redactSecrets', () => {
  it('masks every secret value wherever it appears, longest first', () => {
    expect(
      redactSecrets({ body: 'key SG.abcdef1234 rejected', url: 'https://hooks.example.com/T1/B2/secretpath' }, [
        'SG.abcdef1234',
        'https://hooks.example.com/T1/B2/secretpath',
        'abc',
      ]),
    ).toEqual({
      body: 'key **** rejected',
      url: '****',
    });
    expect(redactSecrets('token=topsecret!', ['topsecret!'])).toBe('token=****');
    expect(redactSecrets(undefined, ['x'.repeat(10)])).toBeUndefined();
  });
});
