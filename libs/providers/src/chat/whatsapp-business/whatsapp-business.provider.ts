import { ChatMessage, ProviderCheckResult, ProviderCredentials, ProviderError, ProviderErrorKind, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { isPlainObject, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, customDataOf, responseDate } from '../chat-http';

export const WHATSAPP_BUSINESS_CREDENTIALS = {
  apiToken: required.string,
  phoneNumberIdentification: required.string,
  /** Graph API version, `v21.0` by default. */
  apiVersion: optional.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://graph.facebook.com';
const DEFAULT_VERSION = 'v21.0';

/** Message types other than text; the first of these keys found in overrides, then customData, sets the type. */
export const WHATSAPP_MESSAGE_TYPES = ['template', 'interactive', 'image', 'document', 'video', 'audio', 'location', 'contacts', 'sticker'] as const;

/** Graph error codes by kind (Cloud API error reference). */
const ERROR_CODES: Record<number, ProviderErrorKind> = {
  0: 'auth',
  190: 'auth',
  10: 'auth',
  200: 'auth',
  4: 'rate_limited',
  80007: 'rate_limited',
  130429: 'rate_limited',
  131048: 'rate_limited',
  131056: 'rate_limited',
  1: 'retryable',
  2: 'retryable',
  131000: 'retryable',
  131016: 'retryable',
  1013: 'invalid_recipient',
  131026: 'invalid_recipient',
  131030: 'invalid_recipient',
  131047: 'invalid_recipient',
  100: 'invalid_request',
  131008: 'invalid_request',
  131009: 'invalid_request',
  132000: 'invalid_request',
  132001: 'invalid_request',
};

/**
 * WhatsApp Business (Cloud API, Graph): `POST {baseUrl|https://graph.facebook.com}/{apiVersion}/
 * {phoneNumberIdentification}/messages` with the Bearer `apiToken`, to the subscriber's phone
 * (digits only). The body is a text message `{type:'text', text:{body, preview_url:false}}`, or, when
 * `overrides` (or `customData`, as Novu) has one of WHATSAPP_MESSAGE_TYPES (`template: {name,
 * language:{code}, components}`, `interactive`, `image`…), that message type with that object.
 * Overrides read: WHATSAPP_MESSAGE_TYPES and `text` (e.g. `{preview_url: true}`). The id is
 * `messages[0].id`. Errors are `{error:{code, message, error_subcode}}`, mapped by code.
 * `check` reads the phone number: `GET /{apiVersion}/{phoneNumberIdentification}`.
 */
export class WhatsappBusinessProvider implements ProviderAdapter<'chat'> {
  readonly id = 'whatsapp-business';
  readonly channel = 'chat' as const;
  readonly credentialSchema = WHATSAPP_BUSINESS_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = this.config(credentials);
    const to = (message.phoneNumber ?? '').replace(/\D/g, '');
    if (!to) throw new ProviderError('invalid_recipient', 'The subscriber has no phone number for WhatsApp', { raw: { missing: 'phone' } });
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, `/${config.version}/${encodeURIComponent(config.phoneNumberIdentification)}/messages`),
      headers: { authorization: `Bearer ${config.apiToken}` },
      json: { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...messageBody(message, context.overrides) },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const id = response.json<{ messages?: { id?: string }[] }>()?.messages?.[0]?.id;
    if (response.status >= 200 && response.status < 300 && id) return { id, date: responseDate(response), raw: { status: response.status } };
    throw failure(response);
  }

  /** `GET /{version}/{phoneNumberIdentification}`: the token can read the sending number. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = this.config(credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, `/${config.version}/${encodeURIComponent(config.phoneNumberIdentification)}`),
      headers: { authorization: `Bearer ${config.apiToken}` },
      signal,
    });
    if (response.status === 200) return { ok: true };
    return { ok: false, message: graphError(response)?.message ?? `WhatsApp answered HTTP ${response.status}` };
  }

  private config(credentials: ProviderCredentials) {
    const config = parseCredentials(this.id, WHATSAPP_BUSINESS_CREDENTIALS, credentials);
    const version = config.apiVersion ? (/^\d/.test(config.apiVersion) ? `v${config.apiVersion}` : config.apiVersion) : DEFAULT_VERSION;
    if (!/^v\d+(\.\d+)?$/.test(version)) {
      throw new ProviderError('invalid_request', `The ${this.id} integration credentials.apiVersion must look like ${DEFAULT_VERSION}`, {
        raw: { invalid: ['apiVersion'] },
      });
    }
    return { ...config, version };
  }
}

/** The type-specific part of the message: text, or the first message type the trigger supplied. */
export function messageBody(message: ChatMessage, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const customData = customDataOf(message);
  for (const type of WHATSAPP_MESSAGE_TYPES) {
    const value = overrides[type] ?? customData[type];
    if (value !== undefined) return { type, [type]: value };
  }
  const text = isPlainObject(overrides.text) ? overrides.text : {};
  return { type: 'text', text: { body: message.content, preview_url: false, ...text } };
}

interface GraphError {
  code?: number;
  error_subcode?: number;
  message?: string;
  error_data?: { details?: string };
}

function graphError(response: VendorResponse): GraphError | undefined {
  const error = response.json<{ error?: GraphError }>()?.error;
  return isPlainObject(error) ? error : undefined;
}

function failure(response: VendorResponse): ProviderError {
  const error = graphError(response);
  const details = error?.error_data?.details;
  const text = error?.message
    ? details && details !== error.message
      ? `${error.message}: ${details}`
      : error.message
    : response.status < 300
      ? 'no message id in the answer'
      : undefined;
  return chatFailure('WhatsApp', response, {
    message: text,
    code: error?.code,
    kind: error?.code !== undefined ? ERROR_CODES[error.code] : undefined,
  });
}
