import { DETAIL, createExecutionDetail, jobProviderId, providerSelectedDetail } from './execution-detail';

const job = {
  id: 'j1',
  organizationId: 'o1',
  environmentId: 'e1',
  notificationId: 'n1',
  subscriberId: 's1',
  transactionId: 't1',
  type: 'chat',
  providerId: 'chat-webhook',
};
const now = new Date('2024-06-01T12:00:00Z');

describe('createExecutionDetail', () => {
  it('fills the Novu shape with defaults and JSON-encodes raw', () => {
    const detail = createExecutionDetail({ job, status: 'Success', detail: DETAIL.MESSAGE_SENT, raw: { id: 'x' } }, now);
    expect(detail).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      organizationId: 'o1',
      environmentId: 'e1',
      notificationId: 'n1',
      jobId: 'j1',
      subscriberId: 's1',
      transactionId: 't1',
      channel: 'chat',
      providerId: 'chat-webhook',
      status: 'Success',
      source: 'Internal',
      detail: 'Message sent',
      raw: '{"id":"x"}',
      isRetry: false,
      isTest: false,
      createdAt: now,
    });
  });

  it('keeps string raw, null for none, encodes errors readably', () => {
    expect(createExecutionDetail({ job, status: 'Failed', detail: 'x', raw: 'plain' }, now).raw).toBe('plain');
    expect(createExecutionDetail({ job, status: 'Failed', detail: 'x' }, now).raw).toBeNull();
    expect(createExecutionDetail({ job, status: 'Failed', detail: 'x', raw: { error: new Error('boom') } }, now).raw).toBe(
      '{"error":{"name":"Error","message":"boom"}}',
    );
  });

  it('omits channel and provider when unknown', () => {
    const detail = createExecutionDetail(
      { job: { ...job, type: undefined, providerId: undefined }, status: 'Pending', detail: DETAIL.STEP_QUEUED, source: 'Payload', isRetry: true },
      now,
    );
    expect(detail).not.toHaveProperty('channel');
    expect(detail).not.toHaveProperty('providerId');
    expect(detail.source).toBe('Payload');
    expect(detail.isRetry).toBe(true);
  });

  it("has Novu's texts", () => {
    expect(DETAIL.FILTER_STEPS).toBe('Step was skipped based on steps conditions');
    expect(DETAIL.DIGEST_SKIPPED).toBe('Digest was skipped, first backoff event');
    expect(providerSelectedDetail('sendgrid')).toBe('sendgrid provider was selected');
  });
});

describe('jobProviderId', () => {
  const at = (providerId?: string) => createExecutionDetail({ job: { ...job, providerId: undefined }, status: 'Pending', detail: 'x', providerId }, now);

  it("is the job's own once it has one", () => {
    expect(jobProviderId({ providerId: 'sendgrid' }, [at('mailgun')])).toBe('sendgrid');
  });

  it('is, before that, the latest provider its details name (the one selected for its message)', () => {
    expect(jobProviderId({}, [at('mailgun'), at(), at('sendgrid'), at()])).toBe('sendgrid');
  });

  it('is none for a job whose details name no provider', () => {
    expect(jobProviderId({}, [at()])).toBeUndefined();
    expect(jobProviderId({}, [])).toBeUndefined();
  });
});
