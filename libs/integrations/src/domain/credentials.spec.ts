import { cleanCredentials, missingCredentials } from './credentials';
import { maskConfigurations, maskCredentials, maskSecret, mergeConfigurations, mergeCredentials, secretValues } from './secrets';
import { findProvider } from './provider-catalogue';

describe('credentials', () => {
  it('masks long secrets to their first four characters and short ones entirely', () => {
    expect(maskSecret('SG.abcdefghijkl')).toBe('SG.a****');
    expect(maskSecret('short')).toBe('*****');
    expect(maskSecret('ab')).toBe('****');
  });

  it('masks only secret fields', () => {
    expect(maskCredentials({ apiKey: 'SG.abcdefghijkl', from: 'a@b.c', password: 'hunter22', secure: true, token: 'tk' })).toEqual({
      apiKey: 'SG.a****',
      from: 'a@b.c',
      password: 'hunt****',
      secure: true,
      token: '****',
    });
  });

  it('names the required fields that are missing or blank', () => {
    const sendgrid = findProvider('sendgrid')!;
    expect(missingCredentials(sendgrid, {})).toEqual(['apiKey', 'from', 'senderName']);
    expect(missingCredentials(sendgrid, { apiKey: 'k', from: ' ', senderName: 'Me' })).toEqual(['from']);
    expect(missingCredentials(findProvider('discord')!, {})).toEqual([]);
  });

  it('merges an update: sent keys replace, null removes, left-out keys stay', () => {
    const stored = { apiKey: 'SG.abcdefghijkl', from: 'a@b.c', senderName: 'A' };
    expect(mergeCredentials(stored, { from: 'x@y.z', senderName: null })).toEqual({ apiKey: 'SG.abcdefghijkl', from: 'x@y.z' });
  });

  it('keeps the stored secret when the masked value is sent back', () => {
    const stored = { apiKey: 'SG.abcdefghijkl', password: 'pw' };
    expect(mergeCredentials(stored, { apiKey: 'SG.a****', password: '****' })).toEqual(stored);
    expect(mergeCredentials(stored, { apiKey: 'SG.new-key-value' })).toEqual({ ...stored, apiKey: 'SG.new-key-value' });
  });

  it('masks the password and secret query values of any URL credential, and keeps them when sent back as shown', () => {
    const stored = { webhookUrl: 'https://alice:s3cret@hooks.example.com/in?token=abc123&channel=ops', baseUrl: 'https://api.example.com/v1?sig=xyz' };
    const shown = maskCredentials(stored);
    expect(shown).toEqual({ webhookUrl: 'https://alice:****@hooks.example.com/in?token=****&channel=ops', baseUrl: 'https://api.example.com/v1?sig=****' });
    expect(maskCredentials({ webhookUrl: 'https://hooks.example.com/plain?channel=ops' })).toEqual({
      webhookUrl: 'https://hooks.example.com/plain?channel=ops',
    });
    expect(mergeCredentials(stored, shown)).toEqual(stored);
    expect(mergeCredentials(stored, { webhookUrl: 'https://hooks.example.com/new' }).webhookUrl).toBe('https://hooks.example.com/new');
  });

  it('masks the private key, passphrase and certificates of tlsOptions, key by key on the way back', () => {
    const stored = { tlsOptions: { key: '-----BEGIN PRIVATE KEY-----x', passphrase: 'pw', cert: 'c', rejectUnauthorized: false } };
    const shown = maskCredentials(stored);
    expect(shown).toEqual({ tlsOptions: { key: '****', passphrase: '****', cert: '****', rejectUnauthorized: false } });
    expect(mergeCredentials(stored, { tlsOptions: { ...(shown.tlsOptions as object), passphrase: 'new' } })).toEqual({
      tlsOptions: { ...stored.tlsOptions, passphrase: 'new' },
    });
  });

  it('masks the inbound webhook signing key and keeps it when sent back', () => {
    const stored = { inboundWebhookEnabled: true, inboundWebhookSigningKey: 'whsec_0123456789' };
    expect(maskConfigurations(stored)).toEqual({ inboundWebhookEnabled: true, inboundWebhookSigningKey: 'whse****' });
    expect(mergeConfigurations(stored, maskConfigurations(stored))).toEqual(stored);
  });

  it('lists every secret value, for masking text that may repeat them', () => {
    expect(
      secretValues(
        { apiKey: 'k1', webhookUrl: 'https://u:p@x.example/?token=t', from: 'a@b.c', tlsOptions: { key: 'pem' } },
        { inboundWebhookSigningKey: 'sk' },
      ).sort(),
    ).toEqual(['https://u:p@x.example/?token=t', 'k1', 'pem', 'sk'].sort());
  });

  it('drops unset keys on create', () => {
    expect(cleanCredentials({ apiKey: 'k', from: undefined, user: null })).toEqual({ apiKey: 'k' });
    expect(cleanCredentials(undefined)).toEqual({});
  });
});
