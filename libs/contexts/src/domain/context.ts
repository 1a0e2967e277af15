/**
 * A context (Novu v2): something a notification is sent within — a tenant, an app, a workspace —
 * known by its `type` and its `identifier` (Novu's `id`), unique per environment, with data that
 * templates and conditions read as `context.<type>.data`.
 */
export interface Context {
  /** Internal id (cursors of the list). */
  id: string;
  organizationId: string;
  environmentId: string;
  type: string;
  identifier: string;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** A context as a trigger names it: its data replaces the stored data when given. */
export interface ContextEntry {
  type: string;
  identifier: string;
  data?: Record<string, unknown>;
}

/** What templates and conditions see of the contexts of a notification: `context.<type>` is `{id, data}`. */
export type ContextVariables = Record<string, { id: string; data: Record<string, unknown> }>;

/** Novu's rule for context types and ids: letters, digits, `-` and `_`, 1 to 100 characters. */
export const CONTEXT_IDENTIFIER_PATTERN = /^[a-zA-Z0-9_-]{1,100}$/;
/** The largest context data, as JSON (Novu's limit). */
export const CONTEXT_DATA_MAX_BYTES = 64 * 1024;

/** How a notification records a context: `type:id`, as Novu's `contextKeys`. */
export const contextKey = (type: string, identifier: string): string => `${type}:${identifier}`;

/** The type and id of a `type:id` key; undefined when it is not one. */
export function parseContextKey(key: string): { type: string; identifier: string } | undefined {
  const at = key.indexOf(':');
  const [type, identifier] = [key.slice(0, at), key.slice(at + 1)];
  return at > 0 && CONTEXT_IDENTIFIER_PATTERN.test(type) && CONTEXT_IDENTIFIER_PATTERN.test(identifier) ? { type, identifier } : undefined;
}

/** The contexts' variables, keyed by type. */
export function contextVariables(contexts: Pick<Context, 'type' | 'identifier' | 'data'>[]): ContextVariables {
  return Object.fromEntries(contexts.map((context) => [context.type, { id: context.identifier, data: context.data }]));
}

/** Why data cannot be a context's, or undefined when it can. */
export function contextDataProblem(data: unknown): string | undefined {
  if (!isObject(data)) return 'data must be an object';
  const bytes = Buffer.byteLength(JSON.stringify(data));
  if (bytes > CONTEXT_DATA_MAX_BYTES) return `data must be at most ${CONTEXT_DATA_MAX_BYTES / 1024} KB as JSON (got ${Math.ceil(bytes / 1024)} KB)`;
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const IDENTIFIER_RULE = 'must be 1 to 100 letters, digits, "-" or "_"';

/**
 * A trigger's `context`: an object of types, each an id or `{id, data}`. Answers the contexts it
 * names, sorted by key (as Novu records them), and the problems keyed by field path.
 */
export function parseContextPayload(value: unknown): { entries: ContextEntry[]; problems: Record<string, string[]> } {
  const problems: Record<string, string[]> = {};
  const problem = (path: string, message: string) => (problems[path] ??= []).push(message);
  if (value === undefined || value === null) return { entries: [], problems };
  if (!isObject(value)) return { entries: [], problems: { context: ['context must be an object of context types, each an id or {id, data}'] } };
  const entries: ContextEntry[] = [];
  for (const [type, item] of Object.entries(value)) {
    const path = `context.${type}`;
    if (!CONTEXT_IDENTIFIER_PATTERN.test(type)) {
      problem(path, `a context type ${IDENTIFIER_RULE}`);
      continue;
    }
    const identifier = isObject(item) ? item.id : item;
    if (typeof identifier !== 'string' || !CONTEXT_IDENTIFIER_PATTERN.test(identifier)) {
      problem(isObject(item) ? `${path}.id` : path, `a context id ${IDENTIFIER_RULE}`);
      continue;
    }
    const data = isObject(item) ? item.data : undefined;
    const invalidData = data === undefined ? undefined : contextDataProblem(data);
    if (invalidData) {
      problem(`${path}.data`, invalidData);
      continue;
    }
    entries.push({ type, identifier, ...(data === undefined ? {} : { data: data as Record<string, unknown> }) });
  }
  entries.sort((a, b) => compareKeys(contextKey(a.type, a.identifier), contextKey(b.type, b.identifier)));
  return { entries, problems };
}

/** Keys in code-point order, so every store and process records the same list. */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
