import { ProviderCredentials, ProviderError } from '@app/delivery';

/**
 * A provider's credential schema: which integration credential keys it reads, of what kind, and
 * which it cannot do without. Parsing is pure (no I/O) and coerces what Novu's dashboard stores
 * as strings: `port` "587" → 587, booleans "true" → true, JSON text → objects.
 */
export interface CredentialField<T, R extends boolean> {
  readonly required: R;
  readonly kind: string;
  /** undefined: absent or blank; throws a message when present but unusable. */
  parse(value: unknown): T | undefined;
}

export type CredentialSchema = Record<string, CredentialField<unknown, boolean>>;

export type ParsedCredentials<S extends CredentialSchema> = {
  [K in keyof S]: S[K] extends CredentialField<infer T, true> ? T : S[K] extends CredentialField<infer T, boolean> ? T | undefined : never;
};

class InvalidCredential extends Error {}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function asString(value: unknown): string | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new InvalidCredential('must be a string');
}

function asBoolean(value: unknown): boolean | undefined {
  if (isBlank(value)) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new InvalidCredential('must be true or false');
}

function asPort(value: unknown): number | undefined {
  if (isBlank(value)) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new InvalidCredential('must be a port number between 1 and 65535');
  return port;
}

function asJsonObject(value: unknown): Record<string, unknown> | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through
    }
  }
  throw new InvalidCredential('must be a JSON object');
}

function asUrl(value: unknown): string | undefined {
  const text = asString(value);
  if (text === undefined) return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidCredential('must be an http(s) URL');
  } catch (error) {
    if (error instanceof InvalidCredential) throw error;
    throw new InvalidCredential('must be a URL');
  }
  return text;
}

/** A PEM block (private keys arrive with `\n` escaped when pasted into a JSON form). */
function asPem(value: unknown): string | undefined {
  const text = asString(value);
  if (text === undefined) return undefined;
  const pem = text.replace(/\\n/g, '\n');
  if (!/-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----/.test(pem)) throw new InvalidCredential('must be a PEM block (-----BEGIN …-----)');
  return pem;
}

function field<T>(kind: string, parse: (value: unknown) => T | undefined) {
  return {
    required: { required: true as const, kind, parse } as CredentialField<T, true>,
    optional: { required: false as const, kind, parse } as CredentialField<T, false>,
  };
}

const KINDS = {
  string: field('string', asString),
  boolean: field('boolean', asBoolean),
  port: field('port', asPort),
  json: field('json', asJsonObject),
  url: field('url', asUrl),
  pem: field('pem', asPem),
};

type Kinds = typeof KINDS;
export const required = Object.fromEntries(Object.entries(KINDS).map(([k, v]) => [k, v.required])) as { [K in keyof Kinds]: Kinds[K]['required'] };
export const optional = Object.fromEntries(Object.entries(KINDS).map(([k, v]) => [k, v.optional])) as { [K in keyof Kinds]: Kinds[K]['optional'] };

/** The keys a schema requires (the catalogue's requiredCredentials must say the same). */
export function requiredKeys(schema: CredentialSchema): string[] {
  return Object.entries(schema)
    .filter(([, spec]) => spec.required)
    .map(([key]) => key);
}

/**
 * Credentials as the adapter's typed config. Missing required keys and unusable values are an
 * `invalid_request` ProviderError naming every offending key (a permanent failure: retrying will
 * not add a credential).
 */
export function parseCredentials<S extends CredentialSchema>(providerId: string, schema: S, credentials: ProviderCredentials): ParsedCredentials<S> {
  const parsed: Record<string, unknown> = {};
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const [key, spec] of Object.entries(schema)) {
    try {
      const value = spec.parse(credentials[key]);
      if (value === undefined && spec.required) missing.push(key);
      parsed[key] = value;
    } catch (error) {
      invalid.push(`credentials.${key} ${(error as Error).message}`);
    }
  }
  if (missing.length || invalid.length) {
    const parts = [...(missing.length ? [`needs ${missing.map((key) => `credentials.${key}`).join(', ')}`] : []), ...invalid];
    throw new ProviderError('invalid_request', `The ${providerId} integration ${parts.join('; ')}`, { raw: { missing, invalid } });
  }
  return parsed as ParsedCredentials<S>;
}
