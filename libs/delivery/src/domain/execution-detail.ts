import { newId } from '@app/kernel';

/** Novu's ExecutionDetailsStatusEnum. */
export const EXECUTION_DETAIL_STATUSES = ['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation'] as const;
export type ExecutionDetailStatus = (typeof EXECUTION_DETAIL_STATUSES)[number];

/** Novu's ExecutionDetailsSourceEnum. */
export const EXECUTION_DETAIL_SOURCES = ['Credentials', 'Internal', 'Payload', 'Webhook'] as const;
export type ExecutionDetailSource = (typeof EXECUTION_DETAIL_SOURCES)[number];

/** One line of a job's history (every attempt, skip and failure gets one). */
export interface ExecutionDetail {
  id: string;
  organizationId: string;
  environmentId: string;
  notificationId: string;
  jobId: string;
  /** Internal id of the subscriber. */
  subscriberId: string;
  transactionId: string;
  channel?: string;
  providerId?: string;
  status: ExecutionDetailStatus;
  source: ExecutionDetailSource;
  detail: string;
  /** JSON text, as Novu stores it; null when there is nothing to add. */
  raw: string | null;
  isRetry: boolean;
  isTest: boolean;
  createdAt: Date;
}

/**
 * The provider a job goes through, as a job shows it: its own once it has ended; before that (sending,
 * or waiting for a retry or a fallback) the latest its details name, the integration selected for
 * its message. Steps without a provider (digest, delay) have none.
 */
export function jobProviderId(job: { providerId?: string }, details: readonly ExecutionDetail[]): string | undefined {
  return job.providerId ?? details.findLast((detail) => detail.providerId !== undefined)?.providerId;
}

export interface ExecutionDetailInput {
  job: {
    id: string;
    organizationId: string;
    environmentId: string;
    notificationId: string;
    subscriberId: string;
    transactionId: string;
    type?: string;
    providerId?: string;
  };
  status: ExecutionDetailStatus;
  source?: ExecutionDetailSource;
  detail: string;
  /** Any value: strings are kept, anything else is JSON-encoded. */
  raw?: unknown;
  isRetry?: boolean;
  isTest?: boolean;
  providerId?: string;
}

export function createExecutionDetail(input: ExecutionDetailInput, now: Date): ExecutionDetail {
  const { job } = input;
  const channel = job.type;
  return {
    id: newId(now.getTime()),
    organizationId: job.organizationId,
    environmentId: job.environmentId,
    notificationId: job.notificationId,
    jobId: job.id,
    subscriberId: job.subscriberId,
    transactionId: job.transactionId,
    ...(channel ? { channel } : {}),
    ...((input.providerId ?? job.providerId) ? { providerId: input.providerId ?? job.providerId } : {}),
    status: input.status,
    source: input.source ?? 'Internal',
    detail: input.detail,
    raw: encodeRaw(input.raw),
    isRetry: input.isRetry ?? false,
    isTest: input.isTest ?? false,
    createdAt: now,
  };
}

function encodeRaw(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return raw;
  try {
    return JSON.stringify(raw, (_key, value) => (value instanceof Error ? { name: value.name, message: value.message } : value));
  } catch {
    return String(raw);
  }
}

/** The standard detail texts (Novu's DetailEnum), so the activity feed reads the same. */
export const DETAIL = {
  STEP_QUEUED: 'Step queued',
  STEP_DELAYED: 'Step delayed',
  STEP_DIGESTED: 'Step digested',
  MESSAGE_CREATED: 'Message created',
  MESSAGE_SENT: 'Message sent',
  PROVIDER_ERROR: 'Unexpected provider error',
  SUBSCRIBER_NO_EMAIL: 'Subscriber missing email address',
  SUBSCRIBER_NO_PHONE: 'Subscriber missing phone number',
  SUBSCRIBER_NO_ACTIVE_INTEGRATION: 'Subscriber does not have an active integration',
  SUBSCRIBER_NO_CHANNEL: 'Subscriber does not have a configured channel',
  PUSH_MISSING_DEVICE_TOKENS: 'Subscriber credentials is missing the tokens for sending a push notification message',
  FILTER_STEPS: 'Step was skipped based on steps conditions',
  STEP_FILTERED_BY_SUBSCRIBER_WORKFLOW_PREFERENCES: 'Step filtered by subscriber workflow preferences',
  STEP_FILTERED_BY_SUBSCRIBER_GLOBAL_PREFERENCES: 'Step filtered by subscriber global preferences',
  STEP_FILTERED_BY_WORKFLOW_PREFERENCES: 'Step filtered by workflow preferences',
  SKIPPED_OUTSIDE_SCHEDULE: "The step was skipped as it fell outside the subscriber's schedule",
  DIGEST_MERGED: 'Digest was merged with other digest',
  DIGEST_SKIPPED: 'Digest was skipped, first backoff event',
  DIGEST_TRIGGERED_EVENTS: 'Digest triggered events',
  DELAY_FINISHED: 'Delay is finished',
  INVALID_DELAY: 'Invalid delay configuration',
  DEFER_DURATION_LIMIT_EXCEEDED: 'Defer duration limit exceeded',
  INTEGRATION_INSTANCE_SELECTED: 'Integration instance selected',
  TENANT_CONTEXT_SELECTED: 'Tenant context selected',
  TENANT_NOT_FOUND: 'Tenant identifier not found',
  MESSAGE_CONTENT_NOT_GENERATED: 'Message content could not be generated',
  WEBHOOK_FILTER_FAILED_RETRY: 'Webhook filter failed, retry will be executed',
  STEP_CANCELED_PREVIOUS_FAILED: 'Step was canceled because a previous step failed',
  THROTTLE_LIMIT_EXCEEDED: 'Throttle limit exceeded',
  // Beyond Novu: what our retries, cancel and fallbacks add to the feed.
  PROVIDER_RETRY_SCHEDULED: 'Provider error, retry scheduled',
  PROVIDER_RETRIES_EXHAUSTED: 'Provider error, retries exhausted',
  STEP_CANCELED_BY_REQUEST: 'Step was canceled by request',
  STEP_DEFERRED_TO_SCHEDULE: "The step was deferred to the subscriber's schedule",
  FALLBACK_INTEGRATION_SELECTED: 'Fallback integration selected',
  VENDOR_PUSHBACK: 'The provider asked to slow down: the message waits for the time it named, no attempt spent, and the integration slows for every worker',
  CIRCUIT_OPENED: "The integration's circuit opened after provider failures in a row: its calls wait, then one probe call tries it again",
  CIRCUIT_OPEN_FAILOVER: "The integration's circuit is open: the next integration of the chain is tried",
  PUSHBACK_FAILOVER: 'The provider asked the integration to slow down: the next integration of the chain is tried',
  CIRCUIT_OPEN_STANDBY: "The integration's circuit is open and it has no fallbacks: another active integration of the channel takes the delivery",
  PUSHBACK_STANDBY: 'The provider asked the integration to slow down and it has no fallbacks: another active integration of the channel takes the delivery',
  FALLBACK_INTEGRATION_SKIPPED: 'Fallback integration skipped: the subscriber has no address or credentials for it',
  STEP_VARIANT_SELECTED: 'Step variant selected',
  ADDRESS_SUPPRESSED: 'Step skipped: the address is on the suppression list after a hard bounce or spam report',
  THROTTLE_PASSED: 'Throttle passed: the run is within the threshold of its window',
  THROTTLE_WINDOW_UNREADABLE: 'Throttle window not found in the payload: the run goes on unthrottled',
  STEP_SKIPPED_BY_THROTTLE: 'Step was skipped because a throttle step before it exceeded its limit',
  DEVICE_TOKEN_REMOVED: 'Device token removed from the subscriber: the provider reports it is no longer registered',
  HTTP_REQUEST_SUCCEEDED: 'HTTP request succeeded',
  HTTP_REQUEST_FAILED: 'HTTP request failed',
  HTTP_REQUEST_RETRY_SCHEDULED: 'HTTP request failed, retry scheduled',
  HTTP_RESPONSE_SCHEMA_MISMATCH: 'HTTP response does not match the response body schema',
  HTTP_RESPONSE_NOT_AN_OBJECT: 'HTTP response is not a JSON object: later steps cannot read fields of it',
  TRANSLATION_KEYS_MISSING: "Translation keys missing in the subscriber's locale: the default locale's text, or the key's fallback, was used",
} as const;
export type DetailText = (typeof DETAIL)[keyof typeof DETAIL];

/** "<providerId> provider was selected". */
export function providerSelectedDetail(providerId: string): string {
  return `${providerId} provider was selected`;
}
