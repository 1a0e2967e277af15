import { EnvironmentVariable } from '@app/environments';
import { CredentialCipher } from '@app/integrations';
import { environmentVariableChange, environmentVariableDocuments, sealedValues } from './mongo-environment-variable.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
/** Marks what it encrypts: the mapper never stores a value as given. */
const cipher: CredentialCipher = { encrypt: (plain) => `sealed(${plain})`, decrypt: (sealed) => sealed.slice(7, -1) };

describe('environment variable documents', () => {
  it('round-trip; values by environment id, each sealed by the cipher', () => {
    const variable: EnvironmentVariable = {
      id: 'v1',
      organizationId: 'o1',
      key: 'SUPPORT_URL',
      type: 'string',
      isSecret: true,
      values: sealedValues({ e1: 'https://a', e2: 'https://b' }, cipher),
      createdAt: at,
      updatedAt: at,
    };
    expect(variable.values).toEqual({ e1: 'sealed(https://a)', e2: 'sealed(https://b)' });
    expect(environmentVariableDocuments.toDomain(environmentVariableDocuments.toDocument(variable))).toEqual(variable);
    const { values: _v, ...withoutValues } = environmentVariableDocuments.toDocument(variable);
    expect(environmentVariableDocuments.toDomain(withoutValues).values).toEqual({});
  });

  it('a change sets the fields given and each value under its environment, keeping the others', () => {
    expect(environmentVariableChange({ key: 'HELP_URL', isSecret: false, values: { e2: 'x' } }, at, cipher)).toEqual({
      $set: { updatedAt: at, key: 'HELP_URL', isSecret: false, 'values.e2': 'sealed(x)' },
    });
    expect(environmentVariableChange({}, at, cipher)).toEqual({ $set: { updatedAt: at } });
  });
});
