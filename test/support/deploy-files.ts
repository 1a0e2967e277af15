import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';

/**
 * Readers of the deployment files (Dockerfile, docker-compose.yml, .dockerignore, .env.example) for
 * tests that check them without a Docker engine: parsed here as Docker and Compose read them.
 */

export const ROOT = resolve(__dirname, '../..');

export const readRootFile = (name: string): string => readFileSync(resolve(ROOT, name), 'utf8');

export interface DockerInstruction {
  keyword: string;
  /** The arguments as written, flags included. */
  raw: string;
  /** `--name=value` flags in front of the arguments. */
  flags: Record<string, string>;
  /** The arguments after the flags: the JSON array of the exec form, else split on whitespace. */
  args: string[];
  /** True when the arguments were a JSON array (exec form). */
  execForm: boolean;
}

export interface DockerStage {
  from: string;
  name?: string;
  instructions: DockerInstruction[];
}

/** Splits a Dockerfile into stages of instructions (comments dropped, `\` continuations joined). */
export function parseDockerfile(text: string): DockerStage[] {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, ' ');
      continue;
    }
    const joined = (pending + line).trim();
    pending = '';
    if (joined) logical.push(joined);
  }
  const stages: DockerStage[] = [];
  for (const line of logical) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = parseInstruction(keyword.toUpperCase(), rest);
    if (instruction.keyword === 'FROM') {
      const [from, as, name] = instruction.args;
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
      continue;
    }
    if (!stages.length) {
      if (instruction.keyword === 'ARG') continue;
      throw new Error(`${instruction.keyword} before the first FROM`);
    }
    stages[stages.length - 1].instructions.push(instruction);
  }
  return stages;
}

function parseInstruction(keyword: string, raw: string): DockerInstruction {
  const flags: Record<string, string> = {};
  let rest = raw;
  for (let flag = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest); flag; flag = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest)) {
    flags[flag[1]] = flag[2] ?? 'true';
    rest = rest.slice(flag[0].length);
  }
  // HEALTHCHECK's own flags stand before `CMD`; its command is what follows.
  if (keyword === 'HEALTHCHECK' && /^CMD\s/i.test(rest)) rest = rest.replace(/^CMD\s+/i, '');
  if (rest.startsWith('[')) {
    const parsed = JSON.parse(rest);
    if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new Error(`${keyword}: not an array of strings`);
    return { keyword, raw, flags, args: parsed, execForm: true };
  }
  return { keyword, raw, flags, args: rest.split(/\s+/).filter(Boolean), execForm: false };
}

/** The patterns of a .dockerignore, and whether a path of the build context is excluded by them. */
export function dockerignore(text: string): { patterns: string[]; excludes(path: string): boolean } {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const rules = patterns.map((pattern) => {
    const negated = pattern.startsWith('!');
    const body = (negated ? pattern.slice(1) : pattern).replace(/^\/+|\/+$/g, '');
    const regex = body
      .split('/')
      .map((part) =>
        part === '**'
          ? '.*'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/')
      .replace(/\.\*\//g, '(?:.*/)?');
    return { negated, regex: new RegExp(`^${regex}(?:/.*)?$`) };
  });
  return {
    patterns,
    // As Docker reads it: the last matching pattern decides; a pattern matching a folder covers its contents.
    excludes(path: string) {
      let excluded = false;
      for (const rule of rules) if (rule.regex.test(path.replace(/^\.\//, ''))) excluded = !rule.negated;
      return excluded;
    },
  };
}

/** A compose file's data as YAML gives it (anchors and `<<` merge keys resolved, `${…}` not yet). */
export function readCompose(name = 'docker-compose.yml'): any {
  return load(readRootFile(name), { schema: CORE_SCHEMA.withTags(mergeTag) });
}

/** KEY=value lines of a .env file (comments and blank lines skipped). */
export function parseDotenv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) vars[match[1]] = match[2].trim();
  }
  return vars;
}

export class MissingVariableError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

/**
 * Compose's interpolation of one string: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?message}` and `${VAR?message}` (the `:` forms also treat an empty value as unset). `used`
 * collects the names met.
 */
export function interpolate(value: string, vars: Record<string, string | undefined>, used?: Set<string>): string {
  return value.replace(
    /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*)|(.?))/g,
    (whole, dollar, name, colon, operator, word, bare, other) => {
      if (dollar) return '$';
      if (other !== undefined && !name && !bare) throw new Error(`invalid interpolation "${whole}" in "${value}"`);
      const variable = name ?? bare;
      used?.add(variable);
      const current = vars[variable];
      const unset = current === undefined || (colon === ':' && current === '');
      if (operator === '-') return unset ? word : current;
      if (operator === '?') {
        if (unset) throw new MissingVariableError(variable, word);
        return current;
      }
      return current ?? '';
    },
  );
}

/** Interpolates every string of a compose document (keys and `x-` extensions included, as Compose does). */
export function interpolateAll(document: unknown, vars: Record<string, string | undefined>, used?: Set<string>): any {
  if (typeof document === 'string') return interpolate(document, vars, used);
  if (Array.isArray(document)) return document.map((item) => interpolateAll(item, vars, used));
  if (document && typeof document === 'object') {
    return Object.fromEntries(Object.entries(document).map(([key, item]) => [key, interpolateAll(item, vars, used)]));
  }
  return document;
}

/** A healthcheck's `test` as the argv Docker runs (`CMD` form, or `CMD-SHELL` through sh -c). */
export function healthcheckArgv(test: string | string[]): string[] {
  if (typeof test === 'string') return ['/bin/sh', '-c', test];
  const [form, ...rest] = test;
  if (form === 'CMD') return rest;
  if (form === 'CMD-SHELL') return ['/bin/sh', '-c', rest.join(' ')];
  throw new Error(`healthcheck test ${JSON.stringify(test)} runs nothing`);
}
