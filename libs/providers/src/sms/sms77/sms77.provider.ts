import { ProviderCheckResult, ProviderCredentials, ProviderErrorKind, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { acceptedAt, checkFailed, overrideOf, senderOf, vendorHttpFailure, vendorRefusal } from '../sms-fields';

export const SMS77_CREDENTIALS = {
  apiKey: required.string,
  from: required.string,
  baseUrl: optional.url,
};

/** seven.io's current gateway; the old gateway.sms77.io name still reaches it (set `baseUrl` for either). */
const ORIGIN = 'https://gateway.seven.io';
/** seven.io refuses the same text to the same number within this window ("reload lock", code 402). */
const RELOAD_LOCK_MS = 180_000;
/** seven.io's `foreign_id` allows at most 64 of these characters. */
const FOREIGN_ID = /^[A-Za-z0-9.\-_@]{1,64}$/;

/** seven.io return codes (HTTP 200) and what they mean for this send. */
const RETURN_CODES: Record<string, { kind: ProviderErrorKind; text: string; retryAfterMs?: number }> = {
  '201': { kind: 'invalid_request', text: 'invalid sender' },
  '202': { kind: 'invalid_recipient', text: 'invalid recipient number' },
  '301': { kind: 'invalid_request', text: 'recipient missing' },
  '305': { kind: 'invalid_request', text: 'text missing' },
  '401': { kind: 'invalid_request', text: 'text too long' },
  '402': { kind: 'rate_limited', text: 'the same SMS was sent within the last 180 seconds (reload lock)', retryAfterMs: RELOAD_LOCK_MS },
  '403': { kind: 'rate_limited', text: 'daily limit for this number reached' },
  '500': { kind: 'permanent', text: 'not enough credit' },
  '600': { kind: 'retryable', text: 'carrier delivery failed' },
  '700': { kind: 'retryable', text: 'unknown error' },
  '900': { kind: 'auth', text: 'authentication failed: check the API key' },
  '902': { kind: 'auth', text: 'HTTP API disabled for this account' },
  '903': { kind: 'auth', text: 'server IP not allowed' },
};

interface SevenMessage {
  id?: string | number | null;
  success?: boolean;
  error?: string | null;
  error_text?: string | null;
}

/**
 * seven.io (formerly sms77) over plain HTTP: `POST {origin}/api/sms` with header `X-Api-Key`, form
 * `to`, `text`, `from`, `json=1` and our message id as `foreign_id` (echoed in delivery reports).
 * The default origin is `https://gateway.seven.io` (providers.md names gateway.sms77.io; the brand
 * moved, both answer). Answers are HTTP 200: `{success: "100", messages: [{id}]}` is success; any
 * other return code (or a bare code such as `900`) is a refusal mapped by code: 900/902/903 auth,
 * 202 invalid_recipient, 402 reload lock rate_limited for 180 s, 500 no credit permanent.
 *
 * Overrides: `label`, `flash` (`1` for a flash SMS), `delay` (a send time seven understands).
 */
export class Sms77Provider implements ProviderAdapter<'sms'> {
  readonly id = 'sms77';
  readonly channel = 'sms' as const;
  readonly credentialSchema = SMS77_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, SMS77_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/api/sms'),
      headers: { 'x-api-key': config.apiKey },
      form: {
        to: message.to,
        text: message.content,
        from: senderOf(message, config),
        json: '1',
        foreign_id: FOREIGN_ID.test(context.idempotencyKey) ? context.idempotencyKey : undefined,
        label: overrideOf(context, 'label'),
        flash: overrideOf(context, 'flash'),
        delay: overrideOf(context, 'delay'),
      },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status < 200 || response.status >= 300) throw vendorHttpFailure(response);
    const body = response.json<unknown>();
    const returnCode = returnCodeOf(body);
    const sent = (body as { messages?: SevenMessage[] } | undefined)?.messages?.[0];
    if (returnCode !== '100' || !sent || sent.success === false) {
      const code = returnCode === '100' || returnCode === '101' ? (sent?.error ?? returnCode) : returnCode;
      throw refusal(response, code, sent?.error_text ?? undefined, message.to);
    }
    // As text, whichever way seven writes it: delivery reports find the message by it.
    const id = sent.id === null || sent.id === undefined ? undefined : String(sent.id);
    return { id, date: acceptedAt(undefined, response), raw: { status: response.status, success: returnCode } };
  }

  /** `GET /api/balance`: the API key is accepted (a refusal is a bare return code such as 900). */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, SMS77_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/api/balance'),
      headers: { 'x-api-key': config.apiKey },
      signal,
    });
    if (response.status !== 200) return checkFailed('seven.io', response);
    const body = response.json<unknown>();
    if (typeof body === 'object' && body !== null && 'amount' in body) return { ok: true };
    const known = RETURN_CODES[String(body)];
    if (known) return { ok: false, message: `seven.io refused the request (code ${String(body)}): ${known.text}` };
    return typeof body === 'number' ? { ok: true } : checkFailed('seven.io', response, response.text.slice(0, 200));
  }
}

/** The return code of an answer: a bare number, or the `success` field of the JSON form. */
function returnCodeOf(body: unknown): string {
  if (typeof body === 'number' || typeof body === 'string') return String(body).trim();
  const success = (body as { success?: unknown } | undefined)?.success;
  return success === undefined || success === null ? '' : String(success);
}

function refusal(response: VendorResponse, code: string, vendorText: string | undefined, target: string) {
  const known = RETURN_CODES[code];
  return vendorRefusal('seven.io', known?.kind ?? 'permanent', response, {
    text: vendorText ?? known?.text ?? (response.text.slice(0, 200) || 'empty answer'),
    code: code || undefined,
    retryAfterMs: known?.retryAfterMs,
    target,
  });
}
