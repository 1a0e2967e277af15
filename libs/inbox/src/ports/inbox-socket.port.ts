/** Sends an event to every socket of one subscriber room, whichever process holds them. */
export interface InboxSocket {
  emit(room: string, event: string, payload: unknown): Promise<void>;
}
export const INBOX_SOCKET = Symbol('InboxSocket');
