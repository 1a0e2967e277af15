import { Injectable } from '@nestjs/common';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** Compiled schemas kept at most: one per HTTP request step version in use. */
const MAX_COMPILED = 500;

export type SchemaCheck = { valid: true } | { valid: false; errors: { path: string; message: string }[] };

/**
 * HTTP request steps' `responseBodySchema`s (JSON Schema, with the standard formats), each compiled
 * once per step version (`key`) and kept while in use; the oldest go first beyond MAX_COMPILED.
 */
@Injectable()
export class ResponseSchemas {
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  check(key: string, schema: Record<string, unknown>, body: unknown): SchemaCheck {
    const validate = this.compile(key, schema);
    if (validate instanceof Error)
      return { valid: false, errors: [{ path: '', message: `responseBodySchema is not a valid JSON Schema: ${validate.message}` }] };
    if (validate(body)) return { valid: true };
    return { valid: false, errors: (validate.errors ?? []).map((error) => ({ path: error.instancePath, message: error.message ?? 'is not valid' })) };
  }

  private compile(key: string, schema: Record<string, unknown>): ValidateFunction | Error {
    let compiled = this.compiled.get(key);
    if (compiled) {
      // most recently used last
      this.compiled.delete(key);
      this.compiled.set(key, compiled);
      return compiled;
    }
    try {
      // An Ajv of its own: Ajv keeps every schema it compiles (and refuses a second with the same $id),
      // so only dropping the instance lets a schema go.
      compiled = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);
    } catch (error) {
      compiled = error as Error;
    }
    if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, compiled);
    return compiled;
  }
}
