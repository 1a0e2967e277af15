import { job, message, newScope, notification } from '../../../../test/contract/delivery-fixtures';
import { InboxState, inboxChangeEvents, inboxEvents } from './inbox-change';

const state = (overrides: Partial<InboxState> = {}): InboxState => ({ read: false, seen: false, archived: false, ...overrides });

describe('inboxEvents', () => {
  it('names one event per field that changed, none when the message already was so', () => {
    expect(inboxEvents(state(), state({ read: true, seen: true }))).toEqual(['message.read', 'message.seen']);
    expect(inboxEvents(state({ seen: true }), state({ read: true, seen: true }))).toEqual(['message.read']);
    expect(inboxEvents(state({ read: true, seen: true }), state({ read: true, seen: true }))).toEqual([]);
    expect(inboxEvents(state({ read: true, seen: true }), state({ seen: true }))).toEqual(['message.unread']);
    expect(inboxEvents(state({ seen: true }), state())).toEqual([]); // there is no message.unseen
    expect(inboxEvents(state(), state({ archived: true, read: true, seen: true }))).toEqual(['message.read', 'message.seen', 'message.archived']);
    expect(inboxEvents(state({ archived: true }), state())).toEqual(['message.unarchived']);
  });

  it('tells a snooze, a snooze to another time and an unsnooze apart', () => {
    const at = new Date('2030-01-01T10:00:00Z');
    expect(inboxEvents(state(), state({ snoozedUntil: at }))).toEqual(['message.snoozed']);
    expect(inboxEvents(state({ snoozedUntil: at }), state({ snoozedUntil: new Date(at) }))).toEqual([]);
    expect(inboxEvents(state({ snoozedUntil: at }), state({ snoozedUntil: new Date(at.getTime() + 1000) }))).toEqual(['message.snoozed']);
    expect(inboxEvents(state({ snoozedUntil: at }), state())).toEqual(['message.unsnoozed']);
  });
});

describe('inboxChangeEvents', () => {
  it('keys each event by the message and the time of its change, and builds no object until asked', () => {
    const changed = { ...message(job(notification(newScope()), 'a')), read: true, seen: true, updatedAt: new Date('2030-01-01T10:00:00Z') };
    const events = inboxChangeEvents([{ message: changed, before: state({ seen: true }) }], 'ada');
    expect(events.map(({ type, key }) => [type, key])).toEqual([['message.read', `${changed.id}:2030-01-01T10:00:00.000Z`]]);
    expect(typeof events[0].object).toBe('function');
    expect((events[0].object as () => Record<string, unknown>)()).toMatchObject({ _id: changed.id, subscriberId: 'ada', read: true });
  });
});
