import type { Message } from '@app/delivery';
import type { InboxRepository } from '../../ports/inbox.repository.port';
import type { InboxSocket } from '../../ports/inbox-socket.port';
import { subscriberRoom } from '../../domain/subscriber-session';
import type { InboxViews } from '../inbox-views';
import { AnnounceInboxChanges } from './announce-inbox-changes.use-case';

const message = (id: string, subscriberId: string) => ({ id, subscriberId, environmentId: 'env', organizationId: 'org' }) as Message;

describe('AnnounceInboxChanges', () => {
  function setup(online: string[]) {
    const emitted: { room: string; event: string }[] = [];
    const socket: InboxSocket = {
      emit: async (room, event) => void emitted.push({ room, event }),
      listening: async (rooms) =>
        new Set(rooms.filter((room) => online.some((id) => room === subscriberRoom({ environmentId: 'env', subscriberInternalId: id })))),
    };
    const inbox = {
      findMany: jest.fn(async (_scope: unknown, ids: string[]) => ids.map((id) => ({ message: { id, subscriberId: id.split(':')[0] } }))),
      badgeCounts: jest.fn(async () => new Map()),
    };
    const views = { socketMessagesOf: jest.fn(async (_scope: unknown, items: unknown[]) => items.map(() => ({}))) };
    const announce = new AnnounceInboxChanges(inbox as unknown as InboxRepository, socket, views as unknown as InboxViews);
    return { announce, inbox, emitted };
  }

  it('reads and emits nothing for subscribers with no socket open', async () => {
    const { announce, inbox, emitted } = setup([]);
    await announce.delivered([message('s1:m1', 's1'), message('s2:m2', 's2')]);
    expect(inbox.findMany).not.toHaveBeenCalled();
    expect(inbox.badgeCounts).not.toHaveBeenCalled();
    expect(emitted).toEqual([]);
    await announce.countsChanged({ environmentId: 'env', organizationId: 'org' }, 's1');
    expect(inbox.badgeCounts).not.toHaveBeenCalled();
  });

  it('announces the messages and counts of the subscribers listening, only', async () => {
    const { announce, inbox, emitted } = setup(['s2']);
    await announce.delivered([message('s1:m1', 's1'), message('s2:m2', 's2')]);
    expect(inbox.findMany).toHaveBeenCalledWith(expect.anything(), ['s2:m2']);
    const room = subscriberRoom({ environmentId: 'env', subscriberInternalId: 's2' });
    expect(emitted).toEqual([
      { room, event: 'notification_received' },
      { room, event: 'unread_count_changed' },
      { room, event: 'unseen_count_changed' },
    ]);
  });
});
