import { Topic, TopicSubscription } from '@app/subscribers';
import { subscriptionChange, topicDocuments, topicSearchFilter, topicSubscriptionDocuments, topicUpsert } from './mongo-topic.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const later = new Date('2025-01-02T00:00:00.000Z');
const topic: Topic = { id: 't1', organizationId: 'o1', environmentId: 'e1', key: 'news', name: 'News', createdAt: at, updatedAt: at };

describe('topic documents', () => {
  it('round-trip with and without a name', () => {
    expect(topicDocuments.toDomain(topicDocuments.toDocument(topic))).toEqual(topic);
    const { name: _n, ...unnamed } = topic;
    expect(topicDocuments.toDocument(unnamed)).not.toHaveProperty('name');
    expect(topicDocuments.toDomain({ ...topicDocuments.toDocument(unnamed), name: null })).toEqual(unnamed);
  });

  it('memberships round-trip, with their name and preferences (conditions as caller JSON) or without', () => {
    const membership: TopicSubscription = {
      id: 'm1',
      organizationId: 'o1',
      environmentId: 'e1',
      topicId: 't1',
      topicKey: 'news',
      subscriberInternalId: 's1',
      subscriberId: 'ada',
      name: 'Mine',
      preferences: [{ workflowId: 'w1', enabled: true, condition: { '==': [{ var: 'payload.tier' }, 'gold'] } }],
      createdAt: at,
      updatedAt: at,
    };
    expect(topicSubscriptionDocuments.toDomain(topicSubscriptionDocuments.toDocument(membership))).toEqual(membership);
    const { name: _n, preferences: _p, ...bare } = membership;
    expect(topicSubscriptionDocuments.toDocument(bare)).not.toHaveProperty('preferences');
    expect(topicSubscriptionDocuments.toDomain(topicSubscriptionDocuments.toDocument(bare))).toEqual(bare);
  });
});

describe('topic writes', () => {
  it('an upsert creates with the topic id, and renames (moving updatedAt) only when a name is given', () => {
    expect(topicUpsert(topic)).toEqual({
      filter: { environmentId: 'e1', key: 'news' },
      update: { $setOnInsert: { _id: 't1', organizationId: 'o1', createdAt: at }, $set: { name: 'News', updatedAt: at } },
    });
    const { name: _n, ...unnamed } = topic;
    expect(topicUpsert(unnamed).update).toEqual({ $setOnInsert: { _id: 't1', organizationId: 'o1', createdAt: at, updatedAt: at } });
  });

  it('a membership change sets the name and the preferences given, and removes preferences set to []', () => {
    expect(subscriptionChange({ name: 'Ours' }, later)).toEqual({ $set: { updatedAt: later, name: 'Ours' } });
    expect(subscriptionChange({ preferences: [{ workflowId: 'w1', enabled: false }] }, later)).toEqual({
      $set: { updatedAt: later, preferences: [{ enabled: false, workflowId: 'w1' }] },
    });
    expect(subscriptionChange({ preferences: [] }, later)).toEqual({ $set: { updatedAt: later }, $unset: { preferences: '' } });
  });

  it('a search matches key and name by case-insensitive substring', () => {
    expect(topicSearchFilter('e1', {})).toEqual({ environmentId: 'e1' });
    expect(topicSearchFilter('e1', { key: 'NEWS', name: 'g_a' })).toEqual({
      $and: [{ environmentId: 'e1' }, { key: { $regex: 'NEWS', $options: 'i' } }, { name: { $regex: 'g_a', $options: 'i' } }],
    });
  });
});
