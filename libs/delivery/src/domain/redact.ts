const MASK = '****';
/** Values shorter than this are too common to hunt for in text (a port, a region). */
const MIN_SECRET_LENGTH = 6;

/**
 * `raw` with every occurrence of the given secret values masked, for execution details and logs:
 * a vendor that echoes a key, or a webhook URL whose path is a credential, must not end up in
 * the activity feed. Strings stay strings; anything else is masked inside its JSON and parsed back.
 */
export function redactSecrets<T>(raw: T, secrets: (string | undefined)[]): T {
  const needles = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (!needles.length || raw === undefined || raw === null) return raw;
  const mask = (text: string) => needles.reduce((masked, needle) => masked.split(needle).join(MASK), text);
  if (typeof raw === 'string') return mask(raw) as T;
  try {
    return JSON.parse(mask(JSON.stringify(raw))) as T;
  } catch {
    return raw;
  }
}
