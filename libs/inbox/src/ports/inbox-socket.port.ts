/** Sends an event to every socket of one subscriber room, whichever process holds them. */
export interface InboxSocket {
  emit(room: string, event: string, payload: unknown): Promise<void>;
  /**
   * The rooms among `rooms` that may have a socket now: never leaves out a room with one, may keep
   * one whose sockets just closed. Announcing to the others is skipped, with the reads it needs.
   */
  listening(rooms: string[]): Promise<Set<string>>;
}
export const INBOX_SOCKET = Symbol('InboxSocket');
