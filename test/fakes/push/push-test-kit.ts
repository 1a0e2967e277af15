import { ProviderError, PushMessage } from '@app/delivery';
import { VendorFake } from '../vendor-fake';

/** The message the engine hands a push adapter: one device token per call. */
export function pushMessage(target: string, extra: Partial<PushMessage> = {}): PushMessage {
  return {
    id: 'msg-1',
    target,
    title: 'New comment',
    content: 'Ada replied to your post',
    payload: { postId: 'p1', count: 2 },
    subscriber: { subscriberId: 'sub-1' },
    step: { id: 'step-1', name: 'push' },
    ...extra,
  };
}

/** The fake took exactly one request and refused none; returns that request. */
export function onlyAccepted(fake: VendorFake) {
  expect(fake.refusals.map((refusal) => refusal.reason)).toEqual([]);
  expect(fake.accepted).toHaveLength(1);
  return fake.accepted[0];
}

/** What the engine needs to drop a dead token: invalid_recipient naming the token. */
export function expectDeadToken(error: ProviderError, token: string, providerCode: string): void {
  expect(error).toMatchObject({ kind: 'invalid_recipient', target: token, providerCode, retryable: false });
}
