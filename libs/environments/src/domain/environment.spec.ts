import { createHash } from 'node:crypto';
import { hashApiKey } from './environment';

describe('hashApiKey', () => {
  it('is the hex SHA-256 of the key, so keys stored before the one-shot hash still authenticate', () => {
    for (const secret of ['', 'a', '0123456789abcdef0123456789abcdef0123456789abcdef', 'ключ-🔑']) {
      expect(hashApiKey(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    }
  });
});
