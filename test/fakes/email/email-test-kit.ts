import { EmailMessage, SendContext, SendResult } from '@app/delivery';
import { sendContext } from '../provider-test-kit';
import { FakeRequest, VendorFake } from '../vendor-fake';

/** What the email fakes accept as an address (what vendors' validation refuses, they refuse). */
export const EMAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** `addr` or `Name <addr>` / `"Name" <addr>`: the address, or undefined when malformed. */
export function addressOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(?:[^<>]*<([^<>]+)>|([^<>\s]+))$/.exec(value.trim());
  const address = match?.[1] ?? match?.[2];
  return address && EMAIL_ADDRESS.test(address) ? address : undefined;
}

export const isBase64 = (value: unknown) => typeof value === 'string' && value.length > 0 && /^[A-Za-z0-9+/]+=*$/.test(value);

/** One email with every field an adapter maps: the shared input of the email adapter specs. */
export function sampleEmail(overrides: Partial<EmailMessage> = {}): EmailMessage {
  return {
    id: 'msg-1',
    to: ['ada@example.com'],
    cc: ['grace@example.com'],
    bcc: ['audit@example.com'],
    subject: 'Welcome',
    html: '<p>Hello <img src="cid:logo"></p>',
    text: 'Hello',
    replyTo: 'support@example.com',
    attachments: [
      { name: 'a.txt', mime: 'text/plain', file: Buffer.from('attached') },
      { name: 'logo.png', mime: 'image/png', file: Buffer.from([0x89, 0x50, 0x4e, 0x47]), cid: 'logo' },
    ],
    headers: { 'X-Campaign': 'welcome' },
    tags: { transactionId: 'tx-1' },
    ...overrides,
  };
}

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
  /** The part as text (fields). */
  value: string;
}

/** A multipart/form-data body, parsed synchronously (the fakes answer synchronously). */
export function parseMultipart(request: FakeRequest): MultipartPart[] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(request.header('content-type') ?? '');
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let start = request.body.indexOf(delimiter);
  while (start >= 0) {
    const next = request.body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const chunk = request.body.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after the delimiter and before the next
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString('utf8');
    const data = chunk.subarray(split + 4);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /\bfilename="([^"]*)"/.exec(disposition)?.[1];
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
    parts.push({ name, data, value: data.toString('utf8'), ...(filename !== undefined ? { filename } : {}), ...(contentType ? { contentType } : {}) });
    start = next;
  }
  return parts;
}

/** The i-th of a topic's emails rendered alike for each subscriber (what batching vendors group). */
export function alikeEmail(i: number, to = `reader${i}@example.com`): EmailMessage {
  return { id: `m-${i}`, to: [to], subject: 'News', html: '<p>News</p>', tags: { transactionId: 'tx-b' } };
}

/** Sends each message at once (as concurrent deliveries do), each with its own id as idempotency key. */
export function sendAtOnce<M extends { id: string }>(
  provider: { send(message: M, credentials: Record<string, unknown>, context: SendContext): Promise<SendResult> },
  credentials: Record<string, unknown>,
  messages: M[],
) {
  return Promise.allSettled(messages.map((message) => provider.send(message, credentials, sendContext(message.id))));
}

/** A batch the vendor answers 429: what each message's failure kind is, and how many requests reached the vendor. */
export async function rateLimitedBatch(fake: VendorFake, send: () => Promise<PromiseSettledResult<unknown>[]>) {
  fake.failNext('rate_limited');
  const outcomes = await send();
  return { kinds: outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as { kind?: string }).kind), requests: fake.requests.length };
}
