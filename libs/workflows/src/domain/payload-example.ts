import { sample } from 'openapi-sampler';

/** A value built from a JSON Schema: its defaults and examples, else sample values of each type (null when the schema gives no object). */
export function schemaExample(schema: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!schema) return null;
  try {
    const example = sample(schema, { skipReadOnly: true, quiet: true });
    return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
