/**
 * An environment variable (Novu's): a key of the organization with a value per environment, read by
 * templates, URLs and conditions as `{{env.KEY}}`. A secret one is never shown: every answer and
 * every rendering a person can see has SECRET_MASK in its place.
 */
export interface EnvironmentVariable {
  id: string;
  organizationId: string;
  /** Unique in the organization. */
  key: string;
  type: EnvironmentVariableType;
  isSecret: boolean;
  /** The value of each environment that has one, by environment id. Plain in the domain; the stores encrypt them at rest. */
  values: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export const ENVIRONMENT_VARIABLE_TYPES = ['string'] as const;
export type EnvironmentVariableType = (typeof ENVIRONMENT_VARIABLE_TYPES)[number];

/** What an update may change; `values` are merged into the stored ones by environment. */
export interface EnvironmentVariableChanges {
  key?: string;
  type?: EnvironmentVariableType;
  isSecret?: boolean;
  values?: Record<string, string>;
}

/** One variable as an environment sees it: what rendering reads. */
export interface EnvironmentValue {
  key: string;
  value: string;
  isSecret: boolean;
}

/** Novu's rule: a letter, then letters, digits and underscores. */
export const ENVIRONMENT_VARIABLE_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const ENVIRONMENT_VARIABLE_KEY_MAX_LENGTH = 256;
export const ENVIRONMENT_VARIABLE_VALUE_MAX_LENGTH = 256;

/** What a secret value is shown as (Novu's mask). A value equal to it is refused, so a masked value sent back never replaces a secret. */
export const SECRET_MASK = '••••••••';

/** The variable as shown: secret values masked, and only `environmentId`'s value when given (an API key sees its own environment's). */
export function shownVariable(variable: EnvironmentVariable, environmentId?: string): EnvironmentVariable {
  const values = Object.entries(variable.values).filter(([id]) => environmentId === undefined || id === environmentId);
  return { ...variable, values: Object.fromEntries(values.map(([id, value]) => [id, variable.isSecret ? SECRET_MASK : value])) };
}

/**
 * The `env` templates read: every variable's value in the environment; a secret's is SECRET_MASK
 * unless `reveal` (only what is sent out, never shown: an HTTP request step's request).
 */
export function envVariables(values: readonly EnvironmentValue[] | undefined, reveal = false): Record<string, string> {
  return Object.fromEntries((values ?? []).map(({ key, value, isSecret }) => [key, isSecret && !reveal ? SECRET_MASK : value]));
}

/** Whether workflow content (any JSON) reads the variable `key` (`env.KEY`, not `env.KEY_MORE`), as Novu's usage finds it. */
export function readsEnvironmentVariable(content: unknown, key: string): boolean {
  return new RegExp(`(^|[^\\w$])env\\.${key}(?![\\w$])`).test(JSON.stringify(content) ?? '');
}

/** Whether workflow content reads any environment variable: rendering loads them only then. */
export function readsEnvironmentVariables(content: unknown): boolean {
  return /(^|[^\w$])env\b/.test(JSON.stringify(content) ?? '');
}
