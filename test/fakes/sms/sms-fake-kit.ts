import { randomBytes } from 'node:crypto';

/** What SMS vendors accept as a destination: E.164 with the plus. */
export const E164 = /^\+[1-9]\d{6,14}$/;
/** The same without the plus (Vonage, MessageBird, Infobip, seven take bare digits). */
export const BARE_MSISDN = /^[1-9]\d{6,14}$/;

/** A random hex id of `length` characters, as vendors' message ids look. */
export function hexId(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

/** RFC 2822 with a numeric zone, as Twilio writes `date_created`. */
export function rfc2822(date = new Date()): string {
  return date.toUTCString().replace('GMT', '+0000');
}
