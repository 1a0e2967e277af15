import { Subscriber } from '@app/subscribers';
import { preferenceDocuments, preferenceUpsert } from './mongo-preference.repository';
import { subscriberChange, subscriberDocuments, subscriberSearchFilter } from './mongo-subscriber.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const later = new Date('2025-01-02T00:00:00.000Z');
const bare: Subscriber = { id: 's1', organizationId: 'o1', environmentId: 'e1', subscriberId: 'ada', channels: [], createdAt: at, updatedAt: at };
const full: Subscriber = {
  ...bare,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+441',
  avatar: 'https://a',
  locale: 'en',
  timezone: 'Europe/London',
  data: { 'plan.tier': 'gold', nested: { $x: 1 } },
  cleared: ['data', 'phone'],
  channels: [{ providerId: 'fcm', integrationId: 'i1', credentials: { deviceTokens: ['t'] } }],
  isOnline: true,
  lastOnlineAt: later,
};

describe('subscriber documents', () => {
  it('round-trip every optional field, presence included once the Inbox has written it', () => {
    const doc = subscriberDocuments.toDocument(full);
    expect(doc).toMatchObject({
      _id: 's1',
      subscriberId: 'ada',
      data: { nested: { '%24x': 1 }, 'plan%2Etier': 'gold' },
      clearedFields: { data: true, phone: true },
    });
    // an insert does not write presence: it is the Inbox's
    expect(doc).not.toHaveProperty('isOnline');
    expect(doc).not.toHaveProperty('lastOnlineAt');
    expect(subscriberDocuments.toDomain({ ...doc, isOnline: true, lastOnlineAt: later })).toEqual(full);
  });

  it('leave unset fields out both ways, channels defaulting to a list', () => {
    const doc = subscriberDocuments.toDocument(bare);
    expect(doc).toEqual({ _id: 's1', organizationId: 'o1', environmentId: 'e1', subscriberId: 'ada', channels: [], createdAt: at, updatedAt: at });
    expect(subscriberDocuments.toDomain(doc)).toEqual(bare);
    expect(subscriberDocuments.toDomain({ ...doc, channels: undefined, clearedFields: {}, email: null })).toEqual(bare);
  });

  it('store channel credentials with sorted keys, so a compare-and-set finds what was stored', () => {
    const channels = [{ providerId: 'fcm', credentials: { deviceTokens: ['t'] }, integrationId: 'i1' }];
    expect(Object.keys(subscriberDocuments.toDocument({ ...bare, channels }).channels[0])).toEqual(['credentials', 'integrationId', 'providerId']);
  });
});

describe('subscriber changes', () => {
  it('set given values, unset nulls, and move the cleared marks with them', () => {
    expect(subscriberChange({ firstName: 'Ada', phone: null, data: { a: 1 } }, ['firstName', 'phone', 'data'])).toEqual({
      $set: { firstName: 'Ada', 'clearedFields.phone': true, data: { a: 1 } },
      $unset: { 'clearedFields.firstName': '', phone: '', 'clearedFields.data': '' },
    });
    expect(subscriberChange({ data: null }, ['data'])).toEqual({ $set: { 'clearedFields.data': true }, $unset: { data: '' } });
    expect(subscriberChange({}, [])).toEqual({ $set: {}, $unset: {} });
  });
});

describe('subscriber search filters', () => {
  it('match email and phone by case-insensitive substring, the name on the trimmed "first last", the subscriberId exactly', () => {
    expect(subscriberSearchFilter('e1', {})).toEqual({ environmentId: 'e1' });
    expect(subscriberSearchFilter('e1', { email: 'a_b', phone: '+44', subscriberId: 's2' })).toEqual({
      $and: [{ environmentId: 'e1' }, { email: { $regex: 'a_b', $options: 'i' } }, { phone: { $regex: '\\+44', $options: 'i' } }, { subscriberId: 's2' }],
    });
    expect(subscriberSearchFilter('e1', { name: 'ada love' })).toEqual({
      $and: [
        { environmentId: 'e1' },
        {
          $expr: {
            $regexMatch: {
              input: { $trim: { input: { $concat: [{ $ifNull: ['$firstName', ''] }, ' ', { $ifNull: ['$lastName', ''] }] }, chars: ' ' } },
              regex: 'ada love',
              options: 'i',
            },
          },
        },
      ],
    });
  });
});

describe('preference documents', () => {
  it('keep the global record under an empty workflow id and read it back as null', () => {
    const global = {
      organizationId: 'o1',
      environmentId: 'e1',
      subscriberId: 's1',
      workflowId: null,
      channels: { email: false },
      createdAt: at,
      updatedAt: at,
    };
    expect(preferenceDocuments.toDocument(global)).toMatchObject({ workflowId: '' });
    expect(preferenceDocuments.toDomain(preferenceDocuments.toDocument(global))).toEqual(global);
    const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
    const workflow = { ...global, workflowId: 'w1', channels: {}, schedule };
    expect(preferenceDocuments.toDomain({ ...preferenceDocuments.toDocument(workflow), _id: { generated: true } as unknown as string })).toEqual(workflow);
    expect(preferenceDocuments.toDomain({ ...preferenceDocuments.toDocument(workflow), channels: undefined, schedule: null })).toEqual({
      ...global,
      workflowId: 'w1',
      channels: {},
    });
  });

  it('upsert one record per (environment, subscriber, workflow), merging the channels given one by one', () => {
    expect(
      preferenceUpsert({ organizationId: 'o1', environmentId: 'e1' }, { subscriberId: 's1', workflowId: null, channels: { email: false, sms: true }, at }),
    ).toEqual({
      filter: { environmentId: 'e1', subscriberId: 's1', workflowId: '' },
      update: { $setOnInsert: { organizationId: 'o1', createdAt: at }, $set: { updatedAt: at, 'channels.email': false, 'channels.sms': true } },
    });
    const withSchedule = preferenceUpsert(
      { organizationId: 'o1', environmentId: 'e1' },
      { subscriberId: 's1', workflowId: 'w1', channels: {}, schedule: { isEnabled: false }, at },
    );
    expect(withSchedule.update.$set).toEqual({ updatedAt: at, schedule: { isEnabled: false } });
    const switchedOff = preferenceUpsert(
      { organizationId: 'o1', environmentId: 'e1' },
      { subscriberId: 's1', workflowId: 'w1', channels: {}, enabled: false, at },
    );
    expect(switchedOff.update.$set).toEqual({ updatedAt: at, enabled: false });
  });

  it("keep the subscriber's switch (Novu's v1 enabled) both ways, and leave it out when never set", () => {
    const off = {
      organizationId: 'o1',
      environmentId: 'e1',
      subscriberId: 's1',
      workflowId: 'w1',
      channels: { sms: false },
      enabled: false,
      createdAt: at,
      updatedAt: at,
    };
    expect(preferenceDocuments.toDocument(off)).toMatchObject({ enabled: false });
    expect(preferenceDocuments.toDomain(preferenceDocuments.toDocument(off))).toEqual(off);
    const { enabled: _e, ...unset } = off;
    expect(preferenceDocuments.toDomain(preferenceDocuments.toDocument(unset))).not.toHaveProperty('enabled');
  });
});
