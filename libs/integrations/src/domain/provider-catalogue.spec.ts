import { CHANNELS } from '@app/kernel';
import { generateIdentifier, slugify } from './identifier';
import { MissingCredentialsError, ProviderChannelMismatchError, UnknownProviderError } from './errors';
import { assertCredentialsForActive, normalizeConditions, resolveProvider } from './integration-validation';
import { PROVIDERS, addressLimitsOf, deliveryLimitsOf, effectiveDeliveryLimits, findProvider } from './provider-catalogue';
import { isSecretCredential } from './secrets';

describe('provider catalogue', () => {
  it('knows the providers of every channel, each id once', () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const channel of CHANNELS) expect(PROVIDERS.some((p) => p.channel === channel)).toBe(true);
    for (const id of ['nodemailer', 'sendgrid', 'ses', 'twilio', 'sns', 'generic-sms', 'slack', 'msteams', 'fcm', 'apns', 'expo', 'novu']) {
      expect(findProvider(id)).toBeDefined();
    }
  });

  it('describes channel, display name and required credentials', () => {
    expect(findProvider('sendgrid')).toMatchObject({ channel: 'email', displayName: 'SendGrid', requiredCredentials: ['apiKey', 'from', 'senderName'] });
    expect(findProvider('twilio')).toMatchObject({ channel: 'sms', requiredCredentials: ['accountSid', 'token', 'from'] });
    expect(findProvider('novu')).toMatchObject({ channel: 'in_app', displayName: 'Novu In-App', requiredCredentials: [] });
    expect(isSecretCredential('apiKey')).toBe(true);
    expect(isSecretCredential('from')).toBe(false);
  });

  it('rejects unknown providers and channel mismatches', () => {
    expect(() => resolveProvider('nope', 'email')).toThrow(UnknownProviderError);
    expect(() => resolveProvider('nope', 'email')).toThrow('Unknown providerId "nope"');
    expect(() => resolveProvider('sendgrid', 'sms')).toThrow(ProviderChannelMismatchError);
    expect(resolveProvider('sendgrid', 'email').id).toBe('sendgrid');
  });

  it('names every missing credential of an active integration', () => {
    const error = (() => {
      try {
        assertCredentialsForActive(findProvider('sendgrid')!, { senderName: 'Me' });
      } catch (e) {
        return e as MissingCredentialsError;
      }
    })();
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect(error!.message).toBe('Missing credentials for sendgrid: apiKey, from');
    expect(Object.keys(error!.details!.errors as object)).toEqual(['credentials.apiKey', 'credentials.from']);
  });

  it('fills the condition fields Novu requires', () => {
    expect(normalizeConditions([{ value: 'AND', children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }] }])).toEqual([
      { isNegated: false, type: 'BOOLEAN', value: 'AND', children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }] },
    ]);
  });

  it('generates identifiers from the name plus a short suffix', () => {
    expect(slugify('Custom SMTP')).toBe('custom-smtp');
    expect(slugify('Ünïcode & Co!')).toBe('unicode-co');
    expect(slugify('!!!')).toBe('integration');
    expect(generateIdentifier('SendGrid', 'abc123')).toBe('sendgrid-abc123');
    expect(generateIdentifier('SendGrid')).toMatch(/^sendgrid-[a-z0-9]{6}$/);
    expect(generateIdentifier('SendGrid')).not.toBe(generateIdentifier('SendGrid'));
  });

  it("applies an integration's own limits, else its provider's default, field by field, saying where each comes from", () => {
    expect(effectiveDeliveryLimits({ providerId: 'twilio' })).toEqual({
      rateLimit: { perSecond: 1 },
      rateLimitSource: 'provider-default',
      maxConcurrencySource: 'none',
    });
    expect(effectiveDeliveryLimits({ providerId: 'twilio', maxConcurrency: 4 })).toEqual({
      rateLimit: { perSecond: 1 },
      rateLimitSource: 'provider-default',
      maxConcurrency: 4,
      maxConcurrencySource: 'integration',
    });
    expect(effectiveDeliveryLimits({ providerId: 'expo', rateLimit: { perSecond: 50, burst: 10 } })).toMatchObject({
      rateLimit: { perSecond: 50, burst: 10 },
      rateLimitSource: 'integration',
    });
    // A Slack webhook's 1/s is per webhook URL (per subscriber), not per integration.
    expect(effectiveDeliveryLimits({ providerId: 'slack' })).toEqual({ rateLimitSource: 'none', maxConcurrencySource: 'none' });
    expect(addressLimitsOf('slack')).toEqual({ rateLimit: { perSecond: 1 } });
    expect(addressLimitsOf('twilio')).toBeUndefined();
    expect(deliveryLimitsOf({ providerId: 'twilio', maxConcurrency: 4 })).toEqual({ rateLimit: { perSecond: 1 }, maxConcurrency: 4 });
  });
});
