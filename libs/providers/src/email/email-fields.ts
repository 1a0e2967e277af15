import { EmailMessage, ProviderError } from '@app/delivery';
import { VendorResponse } from '../http/vendor-http';

/** `Name <address>`, the name quoted when it holds characters that would break the header. */
export function formatAddress(address: string, name?: string): string {
  if (!name) return address;
  const safe = /^[\p{L}\p{N} !#$%&'*+\-/=?^_`{|}~.]+$/u.test(name) ? name : `"${name.replace(/(["\\])/g, '\\$1')}"`;
  return `${safe} <${address}>`;
}

/** The sender of one email: the message's `from` (overrides) before the integration's. */
export function senderOf(message: EmailMessage, credentials: { from?: string; senderName?: string }, providerId: string): { address: string; name?: string } {
  const address = message.from ?? credentials.from;
  if (!address)
    throw new ProviderError('invalid_request', `The ${providerId} integration needs credentials.from (the sender address)`, { raw: { missing: ['from'] } });
  const name = message.senderName ?? credentials.senderName;
  return { address, ...(name ? { name } : {}) };
}

/** When the vendor took the message: its Date header, else now (ISO-8601). */
export function answeredAt(response: VendorResponse): string {
  const header = response.header('date');
  const at = header ? Date.parse(header) : NaN;
  return new Date(Number.isNaN(at) ? Date.now() : at).toISOString();
}

/** Our message id and the message's tags: what vendors echo back in their events. */
export function eventTags(message: EmailMessage): Record<string, string> {
  return { ...message.tags, id: message.id };
}
