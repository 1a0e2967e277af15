import { ProviderError } from '@app/delivery';
import { classifyHttpFailure, classifyNetworkError, parseRetryAfter } from './failure-classification';
import { SsrfBlockedError } from './ssrf-guard';

const now = new Date('2024-06-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('Sat, 01 Jun 2024 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 01 Jun 2024 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('classifyHttpFailure', () => {
  it.each([
    [408, 'retryable'],
    [425, 'retryable'],
    [500, 'retryable'],
    [502, 'retryable'],
    [503, 'retryable'],
    [504, 'retryable'],
    [599, 'retryable'],
    [429, 'rate_limited'],
    [401, 'auth'],
    [403, 'auth'],
    [400, 'invalid_request'],
    [404, 'invalid_request'],
    [409, 'invalid_request'],
    [413, 'invalid_request'],
    [422, 'invalid_request'],
    [410, 'invalid_recipient'],
    [418, 'permanent'],
    [501, 'permanent'],
    [302, 'permanent'],
  ])('HTTP %i is %s', (status, kind) => {
    const error = classifyHttpFailure(status, {}, undefined, now);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(kind === 'retryable' || kind === 'rate_limited');
  });

  it('carries Retry-After (any header casing, or a Headers object) and a body excerpt', () => {
    expect(classifyHttpFailure(429, { 'Retry-After': '7' }, 'slow down', now)).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 7_000,
      raw: { status: 429, body: 'slow down' },
    });
    expect(classifyHttpFailure(503, new Headers({ 'retry-after': '2' }), undefined, now).retryAfterMs).toBe(2_000);
  });
});

describe('classifyNetworkError', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_SOCKET'])('%s is retryable', (code) => {
    expect(classifyNetworkError(Object.assign(new Error(code), { code })).kind).toBe('retryable');
  });

  it('looks through fetch-style causes', () => {
    const wrapped = new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    expect(classifyNetworkError(wrapped)).toMatchObject({ kind: 'retryable', message: 'Provider connection failed (ECONNREFUSED)' });
  });

  it('treats timeouts and aborts as retryable', () => {
    expect(classifyNetworkError(new DOMException('timed out', 'TimeoutError')).kind).toBe('retryable');
    expect(classifyNetworkError(Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ABORT_ERR' })).kind).toBe('retryable');
  });

  it('is permanent for SSRF refusals, TLS failures and unknown errors', () => {
    expect(classifyNetworkError(new SsrfBlockedError('http://127.0.0.1', 'private')).kind).toBe('invalid_request');
    expect(classifyNetworkError(Object.assign(new Error('bad cert'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })).kind).toBe('permanent');
    expect(classifyNetworkError(new Error('weird')).kind).toBe('permanent');
  });

  it('passes ProviderErrors through', () => {
    const error = new ProviderError('auth', 'x');
    expect(classifyNetworkError(error)).toBe(error);
  });
});
