import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AuthenticateSubscriber, SubscriberSession, TrackSubscriberPresence, subscriberRoom } from '@app/inbox';
import { SocketIoHub } from '@app/realtime';

/**
 * The socket side of the Inbox, on the API's HTTP server: a client connects to /socket.io with
 * `?token=<subscriber token>` (as @novu/js does); a bad token is refused at the handshake. Each
 * socket joins its subscriber's room; the subscriber is online while any socket of it is, in any process.
 */
@Injectable()
export class InboxGateway implements OnApplicationBootstrap {
  private readonly logger = new Logger('InboxGateway');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly hub: SocketIoHub,
    private readonly authenticate: AuthenticateSubscriber,
    private readonly presence: TrackSubscriberPresence,
  ) {}

  onApplicationBootstrap(): void {
    const io = this.hub.attach(this.adapterHost.httpAdapter.getHttpServer());
    io.use((socket, next) => {
      const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
      this.authenticate
        .execute(typeof token === 'string' ? token : undefined)
        .then((session) => {
          socket.data.session = session;
          next();
        })
        .catch(() => next(new Error('Unauthorized')));
    });
    io.on('connection', (socket) => {
      const session: SubscriberSession = socket.data.session;
      const room = subscriberRoom(session);
      void socket.join(room);
      this.markPresence(session, true);
      socket.on('disconnect', () => {
        // offline only when no socket of the subscriber is left anywhere
        this.hub
          .socketsIn(room)
          .then((left) => (left === 0 ? this.markPresence(session, false) : undefined))
          .catch(() => undefined);
      });
    });
  }

  private markPresence(session: SubscriberSession, online: boolean): void {
    this.presence.execute(session, online).catch((error) => this.logger.warn(`Presence of ${session.subscriberId} not recorded: ${(error as Error).message}`));
  }
}
