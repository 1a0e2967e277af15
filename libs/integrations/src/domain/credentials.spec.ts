import { cleanCredentials, maskCredentials, maskSecret, mergeCredentials, missingCredentials } from './credentials';
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

  it('drops unset keys on create', () => {
    expect(cleanCredentials({ apiKey: 'k', from: undefined, user: null })).toEqual({ apiKey: 'k' });
    expect(cleanCredentials(undefined)).toEqual({});
  });
});
