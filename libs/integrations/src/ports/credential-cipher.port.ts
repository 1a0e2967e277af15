/** Encrypts integration credentials at rest; the store adapters hold only what `encrypt` returns. */
export interface CredentialCipher {
  encrypt(plaintext: string): string;
  /** Throws when the ciphertext was not made with this key or was tampered with. */
  decrypt(ciphertext: string): string;
}
export const CREDENTIAL_CIPHER = Symbol('CredentialCipher');
