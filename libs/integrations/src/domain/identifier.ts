import { randomBytes } from 'node:crypto';

const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SUFFIX_LENGTH = 6;

/** "Custom SMTP" → "custom-smtp"; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug || 'integration';
}

export function randomSuffix(length = SUFFIX_LENGTH): string {
  const bytes = randomBytes(length);
  let suffix = '';
  for (const byte of bytes) suffix += SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length];
  return suffix;
}

/** Novu's default identifier: the slug of the name plus a short random suffix. */
export function generateIdentifier(name: string, suffix: string = randomSuffix()): string {
  return `${slugify(name)}-${suffix}`;
}
