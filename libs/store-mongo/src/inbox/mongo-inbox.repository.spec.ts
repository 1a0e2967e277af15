import { SEVERITY_STAGES, feedFilter, feedPipeline, inboxChange } from './mongo-inbox.repository';

const scope = { organizationId: 'o1', environmentId: 'e1' };
const at = new Date('2025-01-01T00:00:00.000Z');
const feed = { environmentId: 'e1', organizationId: 'o1', subscriberId: 's1', channel: 'in_app' };

describe('inbox feed filters', () => {
  it("cover one subscriber's in-app messages, snoozed ones out unless asked for", () => {
    expect(feedFilter(scope, 's1', {})).toEqual({ $and: [feed, { snoozedUntil: { $exists: false } }] });
    expect(feedFilter(scope, 's1', { snoozed: true })).toEqual({ $and: [feed, { snoozedUntil: { $exists: true } }] });
    // single-message operations reach a snoozed message too
    expect(feedFilter(scope, 's1', { ids: ['m1'] }, true)).toEqual({ $and: [feed, { _id: { $in: ['m1'] } }] });
  });

  it('filter by any tag, the flags, every data key (strict equality of caller JSON) and ids', () => {
    expect(
      feedFilter(scope, 's1', { tags: ['a', 'b'], read: false, seen: true, archived: false, data: { 'order.id': 7, kind: { b: 1, a: 2 } }, ids: ['m1'] }),
    ).toEqual({
      $and: [
        feed,
        { tags: { $in: ['a', 'b'] } },
        { read: false },
        { seen: true },
        { archived: false },
        { snoozedUntil: { $exists: false } },
        { $expr: { $and: [{ $eq: ['$payload.order%2Eid', { $literal: 7 }] }, { $eq: ['$payload.kind', { $literal: { a: 2, b: 1 } }] }] } },
        { _id: { $in: ['m1'] } },
      ],
    });
  });

  it('look the severity up before the page is cut only when filtering by it', () => {
    const page = { skip: 2, limit: 11 };
    const cut = [{ $sort: { createdAt: -1, _id: -1 } }, { $skip: 2 }, { $limit: 11 }];
    expect(feedPipeline(feed, undefined, page)).toEqual([{ $match: feed }, ...cut, ...SEVERITY_STAGES]);
    expect(feedPipeline(feed, ['high'], page)).toEqual([{ $match: feed }, ...SEVERITY_STAGES, { $match: { inboxSeverity: { $in: ['high'] } } }, ...cut]);
    expect(feedPipeline(feed, undefined)).toEqual([{ $match: feed }]);
  });

  it("read the notification's severity, `none` when it has none", () => {
    expect(SEVERITY_STAGES[0]).toMatchObject({ $lookup: { from: 'notifications', localField: 'notificationId', foreignField: '_id' } });
  });
});

describe('inbox changes', () => {
  it('stamp reads, first and last sight, archiving; unarchiving and waking remove their dates', () => {
    expect(inboxChange({ read: true, seen: true, archived: true, at })).toEqual([
      {
        $set: {
          updatedAt: at,
          read: true,
          lastReadDate: at,
          seen: true,
          lastSeenDate: at,
          firstSeenDate: { $ifNull: ['$firstSeenDate', at] },
          archived: true,
          archivedAt: at,
        },
      },
    ]);
    expect(inboxChange({ read: false, seen: false, archived: false, snoozedUntil: null, at })).toEqual([
      { $set: { updatedAt: at, read: false, seen: false, archived: false, archivedAt: '$$REMOVE', snoozedUntil: '$$REMOVE' } },
    ]);
  });

  it('set a snooze date, and a CTA as a literal (its strings may start with `$`)', () => {
    const until = new Date('2025-01-03T00:00:00.000Z');
    const cta = { type: 'redirect', data: { url: '$path' } };
    expect(inboxChange({ snoozedUntil: until, cta, at })).toEqual([
      { $set: { updatedAt: at, snoozedUntil: until, cta: { $literal: { data: { url: '$path' }, type: 'redirect' } } } },
    ]);
  });
});
