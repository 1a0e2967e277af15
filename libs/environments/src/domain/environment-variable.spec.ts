import { EnvironmentVariable, SECRET_MASK, envVariables, readsEnvironmentVariable, readsEnvironmentVariables, shownVariable } from './environment-variable';

const at = new Date('2025-01-01T00:00:00.000Z');
const variable = (isSecret: boolean): EnvironmentVariable => ({
  id: 'v1',
  organizationId: 'o1',
  key: 'API_TOKEN',
  type: 'string',
  isSecret,
  values: { dev: 'd-value', prod: 'p-value' },
  createdAt: at,
  updatedAt: at,
});

describe('environment variables as shown', () => {
  it("an API key sees its environment's value; a secret's is masked", () => {
    expect(shownVariable(variable(false), 'dev').values).toEqual({ dev: 'd-value' });
    expect(shownVariable(variable(true), 'prod').values).toEqual({ prod: SECRET_MASK });
    expect(shownVariable(variable(true)).values).toEqual({ dev: SECRET_MASK, prod: SECRET_MASK });
  });

  it('templates read every value, a secret masked unless revealed for a request sent out', () => {
    const values = [
      { key: 'SUPPORT_URL', value: 'https://s', isSecret: false },
      { key: 'API_TOKEN', value: 't0ken', isSecret: true },
    ];
    expect(envVariables(values)).toEqual({ SUPPORT_URL: 'https://s', API_TOKEN: SECRET_MASK });
    expect(envVariables(values, true)).toEqual({ SUPPORT_URL: 'https://s', API_TOKEN: 't0ken' });
    expect(envVariables(undefined)).toEqual({});
  });
});

describe('which workflows read a variable', () => {
  it('finds env.KEY in any content, not a longer key', () => {
    const steps = [{ content: 'Help: {{ env.SUPPORT_URL }}' }, { skip: { '==': [{ var: 'env.REGION' }, 'eu'] } }];
    expect(readsEnvironmentVariable(steps, 'SUPPORT_URL')).toBe(true);
    expect(readsEnvironmentVariable(steps, 'REGION')).toBe(true);
    expect(readsEnvironmentVariable(steps, 'SUPPORT')).toBe(false);
    expect(readsEnvironmentVariable([{ content: '{{env.SUPPORT_URL_V2}}' }], 'SUPPORT_URL')).toBe(false);
    expect(readsEnvironmentVariables(steps)).toBe(true);
    expect(readsEnvironmentVariables([{ content: 'the environment of {{payload.env_name}}' }])).toBe(false);
  });
});
