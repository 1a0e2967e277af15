import { EnvironmentVariable, EnvironmentVariableRepository } from '@app/environments';
import { newId } from '@app/kernel';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The EnvironmentVariableRepository contract; every store adapter must pass it. */
function environmentVariableRepositoryContract(open: () => Promise<{ repository: EnvironmentVariableRepository; close(): Promise<void> }>) {
  let repository: EnvironmentVariableRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second));
  const variable = (organizationId: string, key: string, extra: Partial<EnvironmentVariable> = {}): EnvironmentVariable => ({
    id: newId(),
    organizationId,
    key,
    type: 'string',
    isSecret: false,
    values: {},
    createdAt: at(0),
    updatedAt: at(0),
    ...extra,
  });

  it('inserts once per key and organization, and finds it again with its values', async () => {
    const organization = newId();
    const [dev, prod] = [newId(), newId()];
    const url = variable(organization, 'SUPPORT_URL', { values: { [dev]: 'https://dev.example.com', [prod]: 'https://example.com/€' } });
    expect(await repository.insert(url)).toBe(true);
    expect(await repository.insert(variable(organization, 'SUPPORT_URL'))).toBe(false);
    expect(await repository.insert(variable(newId(), 'SUPPORT_URL'))).toBe(true);
    expect(await repository.findByKey(organization, 'SUPPORT_URL')).toEqual(url);
    expect(await repository.findByKey(organization, 'support_url')).toBeNull();
    expect(await repository.findByKey(newId(), 'NOPE')).toBeNull();
  });

  it('lists the organization newest first, searched by a case-insensitive part of the key', async () => {
    const organization = newId();
    for (const [second, key] of ['BASE_URL', 'API_TOKEN', 'base_path', 'X_1'].entries())
      await repository.insert(variable(organization, key, { createdAt: at(second) }));
    await repository.insert(variable(newId(), 'BASE_URL'));
    expect((await repository.list(organization)).map((v) => v.key)).toEqual(['X_1', 'base_path', 'API_TOKEN', 'BASE_URL']);
    expect((await repository.list(organization, 'base')).map((v) => v.key)).toEqual(['base_path', 'BASE_URL']);
    expect((await repository.list(organization, 'X_')).map((v) => v.key)).toEqual(['X_1']);
    expect(await repository.list(organization, '%')).toEqual([]);
  });

  it('updates the given fields, merges values by environment and moves updatedAt', async () => {
    const organization = newId();
    const [dev, prod, staging] = [newId(), newId(), newId()];
    await repository.insert(variable(organization, 'TOKEN', { values: { [dev]: 'd1', [prod]: 'p1' } }));
    const result = await repository.update(organization, 'TOKEN', { key: 'API_TOKEN', isSecret: true, values: { [prod]: 'p2', [staging]: 's1' } }, at(5));
    expect(result).toEqual({
      status: 'updated',
      variable: expect.objectContaining({
        key: 'API_TOKEN',
        isSecret: true,
        type: 'string',
        values: { [dev]: 'd1', [prod]: 'p2', [staging]: 's1' },
        updatedAt: at(5),
      }),
    });
    expect(await repository.findByKey(organization, 'TOKEN')).toBeNull();
    expect((await repository.findByKey(organization, 'API_TOKEN'))?.createdAt).toEqual(at(0));
    expect(await repository.update(organization, 'TOKEN', { isSecret: false }, at(6))).toEqual({ status: 'not_found' });
    await repository.insert(variable(organization, 'OTHER'));
    expect(await repository.update(organization, 'OTHER', { key: 'API_TOKEN' }, at(7))).toEqual({ status: 'key_taken' });
    expect((await repository.findByKey(organization, 'OTHER'))?.updatedAt).toEqual(at(0));
  });

  it("answers an environment's values: the variables that have one", async () => {
    const organization = newId();
    const [dev, prod] = [newId(), newId()];
    await repository.insert(variable(organization, 'B_URL', { values: { [dev]: 'https://dev', [prod]: 'https://prod' } }));
    await repository.insert(variable(organization, 'A_KEY', { isSecret: true, values: { [prod]: 's3cret' } }));
    await repository.insert(variable(organization, 'EMPTY'));
    await repository.insert(variable(newId(), 'C', { values: { [prod]: 'elsewhere' } }));
    expect(await repository.valuesFor(organization, prod)).toEqual([
      { key: 'A_KEY', value: 's3cret', isSecret: true },
      { key: 'B_URL', value: 'https://prod', isSecret: false },
    ]);
    expect(await repository.valuesFor(organization, dev)).toEqual([{ key: 'B_URL', value: 'https://dev', isSecret: false }]);
    expect(await repository.valuesFor(organization, newId())).toEqual([]);
  });

  it('deletes a variable once', async () => {
    const organization = newId();
    await repository.insert(variable(organization, 'GONE'));
    expect(await repository.delete(newId(), 'GONE')).toBe(false);
    expect(await repository.delete(organization, 'GONE')).toBe(true);
    expect(await repository.delete(organization, 'GONE')).toBe(false);
    expect(await repository.findByKey(organization, 'GONE')).toBeNull();
  });
}

describe.each(REPOSITORY_STORES)('EnvironmentVariableRepository on $name', (store) => {
  environmentVariableRepositoryContract(openRepository(store, (r) => r.environmentVariables));
});

describeMongoContract('EnvironmentVariableRepository', (store) => environmentVariableRepositoryContract(openRepository(store, (r) => r.environmentVariables)));
