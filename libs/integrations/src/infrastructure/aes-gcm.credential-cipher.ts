import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CredentialCipher } from '../ports/credential-cipher.port';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM: `v1:<base64 iv|tag|ciphertext>`, a fresh IV per value; the version prefix leaves room for key rotation. */
export class AesGcmCredentialCipher implements CredentialCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
  }

  decrypt(ciphertext: string): string {
    const [version, payload] = ciphertext.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('Unknown credential ciphertext format');
    const bytes = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
