import { createHmac, timingSafeEqual } from 'node:crypto';

/** `r-<job id>-<signature>`: 47 characters, inside the 64 an address's local part may hold; lower case, as some mail servers fold it. */
const LOCAL_PART = /^r-([0-9a-f]{24})-([0-9a-f]{20})$/;

function signature(jobId: string, key: Buffer): string {
  return createHmac('sha256', key).update(`reply-to:${jobId}`).digest('hex').slice(0, 20);
}

/**
 * The Reply-To of an email step with a reply callback: names the step's job (and through it the
 * environment, transaction, subscriber, workflow and step), signed with a key only the service
 * holds (80 bits of HMAC-SHA256), so an address for another job cannot be made up.
 */
export function replyAddress(jobId: string, key: Buffer, domain: string): string {
  return `r-${jobId}-${signature(jobId, key)}@${domain}`;
}

/** The job a reply address names, when the address is one of ours (domain and signature); else undefined. */
export function jobOfReplyAddress(address: string, key: Buffer, domain: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return undefined;
  const match = LOCAL_PART.exec(address.slice(0, at).toLowerCase());
  if (!match) return undefined;
  const [, jobId, given] = match;
  const expected = signature(jobId, key);
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected)) ? jobId : undefined;
}
