import { UnprocessableEntityException } from '@nestjs/common';
import { MessageResponseDto$inboundSchema, MessagesResponseDto$inboundSchema } from '@novu/api/models/components';
import { Message } from '@app/delivery';
import { Subscriber } from '@app/subscribers';
import { createValidationPipe } from '../http/validation';
import { DeleteMessagesQueryDto, ListMessagesQueryDto } from './message.dto';
import { toMessageResponse } from '../shared-dto/message.mapper';
import { toMessagesResponse } from './message.mapper';

const at = new Date('2025-01-02T03:04:05.000Z');

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: '65a000000000000000000001',
    organizationId: 'org1',
    environmentId: 'env1',
    notificationId: '65a000000000000000000002',
    jobId: '65a000000000000000000003',
    subscriberId: '65a000000000000000000004',
    workflowId: '65a000000000000000000005',
    templateIdentifier: 'welcome',
    transactionId: 'txn-1',
    channel: 'in_app',
    status: 'sent',
    content: 'Hello',
    read: false,
    seen: false,
    archived: false,
    deliveredAt: [],
    payload: { orderId: 'A-1' },
    overrides: {},
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const subscriber: Subscriber = {
  id: '65a000000000000000000004',
  organizationId: 'org1',
  environmentId: 'env1',
  subscriberId: 'user-1',
  email: 'user@example.com',
  channels: [],
  createdAt: at,
  updatedAt: at,
};

const hasNull = (value: unknown): boolean => value === null || (typeof value === 'object' && Object.values(value).some(hasNull));

describe('message mapping', () => {
  it('maps a bare message: cta defaults to an empty redirect, optional fields are left out', () => {
    const response = toMessageResponse(message());
    expect(response).toEqual({
      _id: '65a000000000000000000001',
      _templateId: '65a000000000000000000005',
      _environmentId: 'env1',
      _organizationId: 'org1',
      _notificationId: '65a000000000000000000002',
      _jobId: '65a000000000000000000003',
      _subscriberId: '65a000000000000000000004',
      templateIdentifier: 'welcome',
      createdAt: '2025-01-02T03:04:05.000Z',
      deliveredAt: [],
      content: 'Hello',
      transactionId: 'txn-1',
      channel: 'in_app',
      read: false,
      seen: false,
      archived: false,
      cta: { type: 'redirect', data: {} },
      status: 'sent',
      payload: { orderId: 'A-1' },
      overrides: {},
    });
    expect(hasNull(response)).toBe(false);
    expect(MessageResponseDto$inboundSchema.parse(response)).toMatchObject({ id: response._id, cta: { type: 'redirect' } });
  });

  it('maps every field of a full message and the populated subscriber', () => {
    const response = toMessageResponse(
      message({
        stepId: 'step-1',
        channel: 'email',
        status: 'error',
        errorId: 'unexpected_provider_error',
        errorText: 'boom',
        content: [
          { type: 'text', content: 'Hi' },
          { type: 'button', content: 'Go', url: 'https://example.com' },
        ],
        subject: 'Welcome',
        title: 'Title',
        email: 'user@example.com',
        phone: '+15550000',
        directWebhookUrl: 'https://hooks.example.com/x',
        providerId: 'sendgrid',
        deviceTokens: ['t1'],
        cta: { type: 'redirect', data: { url: '/x' }, action: { status: 'pending', buttons: [{ type: 'primary', content: 'OK' }] } },
        read: true,
        seen: true,
        lastSeenDate: at,
        lastReadDate: at,
        snoozedUntil: at,
        deliveredAt: [at, at],
      }),
      subscriber,
    );
    expect(response).toMatchObject({
      _messageTemplateId: 'step-1',
      subject: 'Welcome',
      lastSeenDate: '2025-01-02T03:04:05.000Z',
      lastReadDate: '2025-01-02T03:04:05.000Z',
      snoozedUntil: '2025-01-02T03:04:05.000Z',
      deliveredAt: ['2025-01-02T03:04:05.000Z', '2025-01-02T03:04:05.000Z'],
      cta: { type: 'redirect', data: { url: '/x' }, action: { status: 'pending', buttons: [{ type: 'primary', content: 'OK' }] } },
      errorId: 'unexpected_provider_error',
      errorText: 'boom',
      deviceTokens: ['t1'],
      subscriber: { _id: subscriber.id, subscriberId: 'user-1', email: 'user@example.com', topics: [] },
    });
    expect(hasNull(response)).toBe(false);
    const parsed = MessageResponseDto$inboundSchema.parse(response);
    expect(parsed.subscriber?.subscriberId).toBe('user-1');
    expect(parsed.content).toHaveLength(2);
  });

  it('pages with hasMore = page*limit + data.length < totalCount and the SDK parses the page', () => {
    const items = [message(), message({ id: '65a000000000000000000009', subscriberId: 'gone' })];
    const page = { items, totalCount: 25, subscribers: new Map([[subscriber.id, subscriber]]) };
    const first = toMessagesResponse(page, { page: 0, limit: 2 });
    expect(first).toMatchObject({ totalCount: 25, hasMore: true, pageSize: 2, page: 0 });
    expect(first.data[0].subscriber?.subscriberId).toBe('user-1');
    expect(first.data[1]).not.toHaveProperty('subscriber');
    expect(toMessagesResponse(page, { page: 11, limit: 2 }).hasMore).toBe(true);
    expect(toMessagesResponse({ ...page, items: [items[0]] }, { page: 12, limit: 2 }).hasMore).toBe(false);
    expect(MessagesResponseDto$inboundSchema.parse(first).data).toHaveLength(2);
  });
});

describe('message queries', () => {
  const pipe = createValidationPipe();
  const list = (query: Record<string, unknown>) => pipe.transform(query, { type: 'query', metatype: ListMessagesQueryDto }) as Promise<ListMessagesQueryDto>;
  const rejects = async (promise: Promise<unknown>, field: string) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnprocessableEntityException);
    expect(Object.keys(((error as UnprocessableEntityException).getResponse() as { errors: object }).errors)).toEqual([field]);
  };

  it('defaults page 0 and limit 10 and turns one or repeated transactionId into an array', async () => {
    expect(await list({})).toMatchObject({ page: 0, limit: 10 });
    expect((await list({})).transactionId).toBeUndefined();
    expect((await list({ transactionId: 'a' })).transactionId).toEqual(['a']);
    expect(await list({ transactionId: ['a', 'b'], page: '2', limit: '1000', channel: 'sms' })).toMatchObject({
      transactionId: ['a', 'b'],
      page: 2,
      limit: 1000,
      channel: 'sms',
    });
  });

  it('rejects an unknown channel, a negative page and a zero limit with 422', async () => {
    await rejects(list({ channel: 'fax' }), 'channel');
    await rejects(list({ page: '-1' }), 'page');
    await rejects(list({ limit: '0' }), 'limit');
    await rejects(list({ limit: 'ten' }), 'limit');
    await rejects(pipe.transform({ channel: 'carrier-pigeon' }, { type: 'query', metatype: DeleteMessagesQueryDto }) as Promise<unknown>, 'channel');
  });
});
