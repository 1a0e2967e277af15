import { createHash } from 'node:crypto';
import { hashApiKey, parentProblem } from './environment';

describe('hashApiKey', () => {
  it('is the hex SHA-256 of the key, so keys stored before the one-shot hash still authenticate', () => {
    for (const secret of ['', 'a', '0123456789abcdef0123456789abcdef0123456789abcdef', 'ключ-🔑']) {
      expect(hashApiKey(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    }
  });
});

describe('parentProblem', () => {
  const environments = [{ id: 'dev' }, { id: 'prod', parentId: 'dev' }, { id: 'eu', parentId: 'prod' }];

  it('accepts another environment of the organization that is not a descendant', () => {
    expect(parentProblem(environments, 'eu', 'dev')).toBeUndefined();
    expect(parentProblem(environments, 'new', 'eu')).toBeUndefined();
  });

  it('refuses the environment itself, a stranger, and a descendant (a cycle)', () => {
    expect(parentProblem(environments, 'prod', 'prod')).toBe('is the environment itself');
    expect(parentProblem(environments, 'prod', 'elsewhere')).toBe('is not an environment of this organization');
    expect(parentProblem(environments, 'dev', 'eu')).toBe('has this environment among its parents');
  });
});
