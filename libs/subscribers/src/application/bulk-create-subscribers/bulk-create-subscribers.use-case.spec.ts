import { StoreRejectedError, newId, systemClock } from '@app/kernel';
import { createMemoryStore } from '../../../../../test/fakes/memory';
import { SubscriberRepository } from '../../ports/subscriber.repository.port';
import { BulkCreateSubscribers } from './bulk-create-subscribers.use-case';

describe('BulkCreateSubscribers', () => {
  const scope = { organizationId: newId(), environmentId: newId() };
  let subscribers: SubscriberRepository;
  let bulk: BulkCreateSubscribers;

  beforeEach(() => {
    subscribers = createMemoryStore().subscribers;
    bulk = new BulkCreateSubscribers(subscribers, systemClock);
  });

  it('reports each entry in order: created, updated (existing, or repeated in the list); repeats are merged, later fields winning', async () => {
    await bulk.execute({ scope, subscribers: [{ subscriberId: 'old', changes: { firstName: 'Old' } }] });
    const result = await bulk.execute({
      scope,
      subscribers: [
        { subscriberId: 'new', changes: { firstName: 'New', lastName: 'One' } },
        { subscriberId: 'old', changes: { lastName: 'Timer' } },
        { subscriberId: 'new', changes: { firstName: 'Renamed' } },
      ],
    });
    expect(result).toEqual({ created: ['new'], updated: ['old', 'new'], failed: [] });
    expect(await subscribers.findBySubscriberId(scope, 'new')).toMatchObject({ firstName: 'Renamed', lastName: 'One' });
    expect(await subscribers.findBySubscriberId(scope, 'old')).toMatchObject({ firstName: 'Old', lastName: 'Timer' });
  });

  it('lists what the store refuses under failed and still writes the others; any other error fails the call', async () => {
    const upsert = subscribers.upsert.bind(subscribers);
    subscribers.upsert = (s, change) => (change.subscriberId === 'bad' ? Promise.reject(new StoreRejectedError('value too long', '22001')) : upsert(s, change));
    const result = await bulk.execute({
      scope,
      subscribers: [
        { subscriberId: 'bad', changes: {} },
        { subscriberId: 'good', changes: {} },
      ],
    });
    expect(result).toEqual({ created: ['good'], updated: [], failed: [{ subscriberId: 'bad', message: 'value too long' }] });

    subscribers.upsert = () => Promise.reject(new Error('connection lost'));
    await expect(bulk.execute({ scope, subscribers: [{ subscriberId: 'any', changes: {} }] })).rejects.toThrow('connection lost');
  });
});
