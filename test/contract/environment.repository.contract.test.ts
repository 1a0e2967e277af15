import { ApiKey, Environment, EnvironmentRepository, generateEnvironmentIdentifier } from '@app/environments';
import { newId } from '@app/kernel';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The EnvironmentRepository contract; every store adapter must pass it. */
function environmentRepositoryContract(open: () => Promise<{ repository: EnvironmentRepository; close(): Promise<void> }>) {
  let repository: EnvironmentRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organization = { id: newId(), name: 'Org', createdAt: new Date() };
  const environment = (name: string): Environment => ({
    id: newId(),
    organizationId: organization.id,
    name,
    identifier: generateEnvironmentIdentifier(),
    inboxHmac: name !== 'Development',
    createdAt: new Date(),
  });
  const key = (environmentId: string, hash: string): ApiKey => ({
    id: newId(),
    organizationId: organization.id,
    environmentId,
    hash,
    hint: hash.slice(-4),
    createdAt: new Date(),
  });

  it('grants the bootstrap claim exactly once, even to concurrent callers', async () => {
    const claims = await Promise.all([repository.claimBootstrap(), repository.claimBootstrap(), repository.claimBootstrap()]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await repository.claimBootstrap()).toBe(false);
  });

  it('stores organizations and environments, with unique names per organization', async () => {
    await repository.insertOrganization(organization);
    const development = environment('Development');
    expect(await repository.insertEnvironment(development)).toBe(true);
    expect(await repository.insertEnvironment(environment('Development'))).toBe(false);
    expect(await repository.findEnvironment(development.id)).toMatchObject({ id: development.id, name: 'Development' });
    expect(await repository.findEnvironmentByName(organization.id, 'Development')).toMatchObject({ id: development.id });
    expect(await repository.findEnvironment(newId())).toBeNull();
    expect((await repository.listOrganizations()).map((o) => o.id)).toContain(organization.id);
  });

  it('finds keys by hash only, and refuses a duplicate hash', async () => {
    const production = environment('Production');
    await repository.insertEnvironment(production);
    expect(await repository.insertApiKey(key(production.id, 'hash-1'))).toBe(true);
    expect(await repository.insertApiKey(key(production.id, 'hash-1'))).toBe(false);
    expect(await repository.findApiKeyByHash('hash-1')).toMatchObject({ environmentId: production.id, organizationId: organization.id });
    expect(await repository.findApiKeyByHash('hash-2')).toBeNull();
    expect(await repository.listApiKeys(production.id)).toHaveLength(1);
    expect((await repository.listEnvironments(organization.id)).map((e) => e.name).sort()).toEqual(['Development', 'Production']);
  });

  it("finds an environment by its public identifier, keeps a key's sealed secret, and switches the Inbox HMAC requirement", async () => {
    const staging = environment('Staging');
    await repository.insertEnvironment(staging);
    expect(await repository.findEnvironmentByIdentifier(staging.identifier)).toMatchObject({ id: staging.id, inboxHmac: true });
    expect(await repository.findEnvironmentByIdentifier('no-such-identifier')).toBeNull();
    await expect(repository.insertEnvironment({ ...environment('Other'), identifier: staging.identifier })).rejects.toThrow();
    expect(await repository.setInboxHmac(staging.id, false)).toBe(true);
    expect(await repository.findEnvironment(staging.id)).toMatchObject({ inboxHmac: false });
    expect(await repository.setInboxHmac(newId(), true)).toBe(false);
    await repository.insertApiKey({ ...key(staging.id, 'hash-sealed'), sealedSecret: 'sealed-text' });
    await repository.insertApiKey(key(staging.id, 'hash-plain'));
    expect(await repository.findApiKeyByHash('hash-sealed')).toMatchObject({ sealedSecret: 'sealed-text' });
    expect(await repository.findApiKeyByHash('hash-plain')).not.toHaveProperty('sealedSecret');
  });

  it('keeps colour and parent, and updates name, colour and parent (a taken name refused)', async () => {
    const parent = environment('Parent');
    const child = { ...environment('Child'), color: '#4caf50', parentId: parent.id };
    await repository.insertEnvironment(parent);
    await repository.insertEnvironment(child);
    expect(await repository.findEnvironment(child.id)).toEqual(child);
    expect(await repository.findEnvironment(parent.id)).not.toHaveProperty('color');
    expect(await repository.updateEnvironment(child.id, { name: 'Child 2', color: '#000' })).toBe('updated');
    expect(await repository.findEnvironment(child.id)).toEqual({ ...child, name: 'Child 2', color: '#000' });
    expect(await repository.updateEnvironment(child.id, { parentId: undefined, color: undefined })).toBe('updated');
    expect(await repository.findEnvironment(child.id)).toMatchObject({ parentId: parent.id, color: '#000' });
    expect(await repository.updateEnvironment(child.id, { name: 'Parent' })).toBe('name_taken');
    expect(await repository.updateEnvironment(newId(), { name: 'Nobody' })).toBe('not_found');
  });

  it('deletes the keys of an environment, then the environment', async () => {
    const doomed = environment('Doomed');
    await repository.insertEnvironment(doomed);
    await repository.insertApiKey(key(doomed.id, 'hash-doomed-1'));
    await repository.insertApiKey(key(doomed.id, 'hash-doomed-2'));
    const keptKeys = (await repository.listApiKeys((await repository.findEnvironmentByName(organization.id, 'Production'))!.id)).length;
    expect(await repository.deleteApiKeys(doomed.id)).toBe(2);
    expect(await repository.findApiKeyByHash('hash-doomed-1')).toBeNull();
    expect(await repository.deleteEnvironment(doomed.id)).toBe(true);
    expect(await repository.findEnvironment(doomed.id)).toBeNull();
    expect(await repository.deleteEnvironment(doomed.id)).toBe(false);
    expect(await repository.deleteApiKeys(doomed.id)).toBe(0);
    expect(await repository.listApiKeys((await repository.findEnvironmentByName(organization.id, 'Production'))!.id)).toHaveLength(keptKeys);
  });
}

describe.each(REPOSITORY_STORES)('EnvironmentRepository on $name', (store) => {
  environmentRepositoryContract(openRepository(store, (r) => r.environments));
});

describeMongoContract('EnvironmentRepository', (store) => environmentRepositoryContract(openRepository(store, (r) => r.environments)));
