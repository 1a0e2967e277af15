import { Message } from '@app/delivery';
import { changeFor, ctaAfter } from './inbox-change';
import { toInboxNotification, toSocketMessage } from './inbox-notification';

const at = new Date('2026-01-02T03:04:05.000Z');
const message = (overrides: Partial<Message> = {}): Message => ({
  id: 'm1',
  organizationId: 'o',
  environmentId: 'e',
  notificationId: 'n',
  jobId: 'j',
  subscriberId: 's1',
  workflowId: 'w1',
  templateIdentifier: 'welcome',
  transactionId: 't1',
  channel: 'in_app',
  status: 'sent',
  content: 'Hello',
  read: false,
  seen: false,
  archived: false,
  deliveredAt: [at],
  payload: { order: 1 },
  overrides: {},
  createdAt: at,
  updatedAt: at,
  cta: { type: 'redirect', data: { url: '/x' }, action: { buttons: [{ type: 'primary', content: 'Go' }] } },
  ...overrides,
});
const workflow = { id: 'w1', identifier: 'welcome', name: 'Welcome', critical: false, tags: ['a'], severity: 'none' };

describe('Inbox notification shapes', () => {
  it("maps a message to Novu's Inbox notification, with actions and redirect", () => {
    expect(toInboxNotification({ message: message(), severity: 'high' }, workflow, { id: 's1', subscriberId: 'user-1' })).toEqual({
      id: 'm1',
      transactionId: 't1',
      body: 'Hello',
      to: { id: 's1', subscriberId: 'user-1' },
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      deliveredAt: [at.toISOString()],
      createdAt: at.toISOString(),
      primaryAction: { label: 'Go', isCompleted: false },
      channelType: 'in_app',
      tags: [],
      data: { order: 1 },
      redirect: { url: '/x' },
      workflow,
      severity: 'high',
    });
  });

  it("gives the socket Novu's stored message shape, cta always an object", () => {
    const payload = toSocketMessage({ message: message({ cta: undefined }), severity: 'none' }, workflow, { id: 's1', subscriberId: 'user-1' });
    expect(payload).toMatchObject({ _id: 'm1', content: 'Hello', read: false, channel: 'in_app', subscriber: { _id: 's1', subscriberId: 'user-1' } });
    expect(payload.cta).toEqual({ type: 'redirect', data: {}, action: {} });
  });

  it('reading also sees, archiving also reads; completing sets done and the result, reverting goes back to pending', () => {
    expect(changeFor('read', at)).toEqual({ read: true, seen: true, at });
    expect(changeFor('archive', at)).toEqual({ archived: true, read: true, seen: true, at });
    const done = ctaAfter(message().cta, 'complete', 'primary');
    expect(done.action).toEqual({ buttons: [{ type: 'primary', content: 'Go' }], status: 'done', result: { type: 'primary', payload: {} } });
    expect(ctaAfter(done, 'revert', 'primary').action).toEqual({ buttons: [{ type: 'primary', content: 'Go' }], status: 'pending' });
  });
});
