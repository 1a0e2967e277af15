import { randomUUID } from 'node:crypto';
import { hasScheme } from '../vendor-auth';
import { FakeReply, FakeRequest, VendorFake, VendorOutcome } from '../vendor-fake';

const EXPO_TOKEN = /^Expo(nent)?PushToken\[[^\]]+\]$/;

type TicketError = 'DeviceNotRegistered' | 'MessageTooBig' | 'MessageRateExceeded' | 'MismatchSenderId' | 'InvalidCredentials';

/**
 * Expo push service: `POST /--/api/v2/push/send` with an array of messages and the project's access
 * token as Bearer (push security on). Answers 200 with one ticket per message — `{status:'ok', id}`
 * or `{status:'error', message, details:{error}}` — or a request-level `{errors:[{code, message}]}`.
 * Tokens in `unregistered`, and strings that are no Expo push token, get DeviceNotRegistered.
 */
export class ExpoFake extends VendorFake {
  readonly unregistered = new Set<string>();
  private readonly ticketErrors: TicketError[] = [];

  constructor(readonly accessToken = 'expo-access-token') {
    super();
  }

  /** The next sends' tickets carry these errors (HTTP 200), in order. */
  ticketErrorNext(...errors: TicketError[]): this {
    this.ticketErrors.push(...errors);
    return this;
  }

  override reset(): void {
    super.reset();
    this.unregistered.clear();
    this.ticketErrors.length = 0;
  }

  protected handle(request: FakeRequest): FakeReply {
    const requestError = (status: number, code: string, message: string) => this.refuse(status, `${code}: ${message}`, { errors: [{ code, message }] });
    if (request.method !== 'POST' || request.path !== '/--/api/v2/push/send') requestError(404, 'NOT_FOUND', `no route ${request.method} ${request.path}`);
    if (!hasScheme(request, 'Bearer', this.accessToken)) requestError(401, 'UNAUTHORIZED', 'The bearer token is invalid; check the access token');
    if (!request.header('content-type')?.startsWith('application/json')) requestError(400, 'VALIDATION_ERROR', 'Content-Type must be application/json');
    const body = request.json();
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0 || messages.length > 100) requestError(400, 'PUSH_TOO_MANY_NOTIFICATIONS', 'Between 1 and 100 messages per request');
    for (const message of messages) {
      if (typeof message.to !== 'string' && !Array.isArray(message.to)) requestError(400, 'VALIDATION_ERROR', '"to" is required');
      if (message.badge !== undefined && typeof message.badge !== 'number') requestError(400, 'VALIDATION_ERROR', '"badge" must be a number');
      if (message.priority !== undefined && !['default', 'normal', 'high'].includes(message.priority))
        requestError(400, 'VALIDATION_ERROR', '"priority" must be one of [default, normal, high]');
      if (message.data !== undefined && (typeof message.data !== 'object' || Array.isArray(message.data)))
        requestError(400, 'VALIDATION_ERROR', '"data" must be an object');
    }
    const tickets = messages.map((message) => {
      const scripted = this.ticketErrors.shift();
      if (scripted) return ticketError(scripted, message.to);
      if (!EXPO_TOKEN.test(message.to) || this.unregistered.has(message.to)) return ticketError('DeviceNotRegistered', message.to);
      return { status: 'ok', id: randomUUID() };
    });
    if (tickets.every((ticket) => ticket.status === 'error')) return { status: 200, body: { data: tickets } };
    return this.deliver(request, { status: 200, body: { data: tickets } });
  }

  protected failure(outcome: VendorOutcome, request: FakeRequest): FakeReply {
    const to = [request.json()].flat()[0]?.to;
    switch (outcome) {
      case 'rate_limited':
        return { status: 429, headers: { 'retry-after': '5' }, body: { errors: [{ code: 'TOO_MANY_REQUESTS', message: 'Too many requests; slow down' }] } };
      case 'unavailable':
        return { status: 503, body: { errors: [{ code: 'INTERNAL_SERVER_ERROR', message: 'An unknown error occurred.' }] } };
      case 'permanent':
        return { status: 200, body: { data: [ticketError('MessageTooBig', to)] } };
      case 'invalid_recipient':
        return { status: 200, body: { data: [ticketError('DeviceNotRegistered', to)] } };
      case 'auth':
        return { status: 200, body: { data: [ticketError('InvalidCredentials', to)] } };
    }
  }
}

function ticketError(error: TicketError, to: unknown) {
  const messages: Record<TicketError, string> = {
    DeviceNotRegistered: `${JSON.stringify(to)} is not a registered push notification recipient`,
    MessageTooBig: 'Message too big (over 4096 bytes)',
    MessageRateExceeded: 'Message rate exceeded for this device',
    MismatchSenderId: 'FCM sender id mismatch',
    InvalidCredentials: "Unable to retrieve the FCM server key for the recipient's app. Make sure you have provided a server key.",
  };
  return { status: 'error', message: messages[error], details: { error, ...(error === 'DeviceNotRegistered' ? { expoPushToken: to } : {}) } };
}
