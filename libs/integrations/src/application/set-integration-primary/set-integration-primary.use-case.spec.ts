import { newId, systemClock } from '@app/kernel';
import { createMemoryStore } from '../../../../../test/fakes/memory';
import { ChannelWithoutPrimaryError, IntegrationNotFoundError, MalformedIntegrationIdError, MissingCredentialsError } from '../../domain/errors';
import { IntegrationRepository } from '../../ports/integration.repository.port';
import { CreateIntegration } from '../create-integration/create-integration.use-case';
import { SetIntegrationPrimary } from './set-integration-primary.use-case';

describe('SetIntegrationPrimary', () => {
  const scope = { organizationId: newId(), environmentId: newId() };
  const credentials = { apiKey: 'SG.key', from: 'noreply@example.com', senderName: 'Acme' };
  let integrations: IntegrationRepository;
  let create: CreateIntegration;
  let setPrimary: SetIntegrationPrimary;

  beforeEach(() => {
    integrations = createMemoryStore().integrations;
    create = new CreateIntegration(integrations, systemClock);
    setPrimary = new SetIntegrationPrimary(integrations, systemClock);
  });

  const state = async () =>
    Object.fromEntries((await integrations.list(scope)).map((i) => [i.identifier, { primary: i.primary, priority: i.priority, active: i.active }]));

  it('moves the primary flag, drops the conditions, renumbers with the new primary on top', async () => {
    await create.execute({ scope, providerId: 'sendgrid', channel: 'email', identifier: 'a', active: true, credentials });
    await create.execute({ scope, providerId: 'sendgrid', channel: 'email', identifier: 'b', active: true, credentials });
    const c = await create.execute({
      scope,
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'c',
      active: true,
      credentials,
      conditions: [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'tenant' }] }],
    });
    expect(await state()).toMatchObject({ a: { primary: true } });

    const result = await setPrimary.execute({ scope, id: c.id });
    expect(result).toMatchObject({ id: c.id, primary: true, active: true, conditions: [] });
    const after = await state();
    expect(after.c).toEqual({ primary: true, priority: 3, active: true });
    expect([after.a.primary, after.b.primary]).toEqual([false, false]);
    expect([after.a.priority, after.b.priority].sort()).toEqual([1, 2]);
    // once primary, asking again changes nothing
    expect((await setPrimary.execute({ scope, id: c.id })).priority).toBe(3);
  });

  it('activates an inactive integration that has its credentials, and refuses one that has not', async () => {
    const ready = await create.execute({ scope, providerId: 'sendgrid', channel: 'email', identifier: 'ready', credentials });
    expect((await setPrimary.execute({ scope, id: ready.id })).active).toBe(true);
    const bare = await create.execute({ scope, providerId: 'sendgrid', channel: 'email', identifier: 'bare' });
    await expect(setPrimary.execute({ scope, id: bare.id })).rejects.toBeInstanceOf(MissingCredentialsError);
    expect((await integrations.findById(scope, bare.id))?.primary).toBe(false);
  });

  it('refuses channels without a primary, unknown ids, and ids that are not ids (400, as Novu)', async () => {
    const chat = await create.execute({ scope, providerId: 'discord', channel: 'chat', identifier: 'chat', active: true });
    await expect(setPrimary.execute({ scope, id: chat.id })).rejects.toBeInstanceOf(ChannelWithoutPrimaryError);
    await expect(setPrimary.execute({ scope, id: newId() })).rejects.toBeInstanceOf(IntegrationNotFoundError);
    await expect(setPrimary.execute({ scope, id: 'not-an-id' })).rejects.toBeInstanceOf(MalformedIntegrationIdError);
  });
});
