import { Injectable } from '@nestjs/common';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** Compiled schemas kept at most: one per workflow version and schema in use. */
const MAX_COMPILED = 500;

export type SchemaCheck = { valid: true } | { valid: false; errors: { path: string; message: string }[] };

/**
 * JSON Schemas written by callers (a workflow's `payloadSchema`, an HTTP request step's
 * `responseBodySchema`), each compiled once per version (`key`) and kept while in use; the oldest go
 * first beyond MAX_COMPILED. `fillDefaults` writes the schema's defaults into the value checked.
 */
@Injectable()
export class JsonSchemas {
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  check(key: string, schema: Record<string, unknown>, value: unknown, options: { fillDefaults?: boolean } = {}): SchemaCheck {
    const validate = this.compile(`${options.fillDefaults ? 'defaults' : 'plain'}:${key}`, schema, options.fillDefaults === true);
    if (validate instanceof Error) return { valid: false, errors: [{ path: '', message: `not a valid JSON Schema: ${validate.message}` }] };
    if (validate(value)) return { valid: true };
    return { valid: false, errors: (validate.errors ?? []).map((error) => ({ path: error.instancePath, message: error.message ?? 'is not valid' })) };
  }

  private compile(key: string, schema: Record<string, unknown>, useDefaults: boolean): ValidateFunction | Error {
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
      compiled = addFormats(new Ajv({ strict: false, allErrors: true, useDefaults })).compile(schema);
    } catch (error) {
      compiled = error as Error;
    }
    if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, compiled);
    return compiled;
  }
}
