import { randomBytes } from 'node:crypto';
import { AesGcmCredentialCipher } from './aes-gcm.credential-cipher';

describe('AesGcmCredentialCipher', () => {
  const cipher = new AesGcmCredentialCipher(randomBytes(32));

  it('round-trips and never repeats a ciphertext', () => {
    const plaintext = JSON.stringify({ apiKey: 'SG.secret' });
    const a = cipher.encrypt(plaintext);
    expect(a).toMatch(/^v1:/);
    expect(a).not.toContain('SG.secret');
    expect(cipher.encrypt(plaintext)).not.toBe(a);
    expect(cipher.decrypt(a)).toBe(plaintext);
  });

  it('refuses tampered data and another key', () => {
    const sealed = cipher.encrypt('hello');
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => cipher.decrypt(`v1:${bytes.toString('base64')}`)).toThrow();
    expect(() => new AesGcmCredentialCipher(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow('Unknown credential ciphertext format');
    expect(() => new AesGcmCredentialCipher(randomBytes(16))).toThrow();
  });
});
