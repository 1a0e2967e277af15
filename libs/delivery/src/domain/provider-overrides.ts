import { Channel } from '@app/kernel';

export interface ProviderOverrides {
  /** Provider data for this delivery, later layers winning key by key. */
  data: Record<string, unknown>;
  /** `_passthrough` of every layer, deep-merged. */
  passthrough?: { body?: Record<string, unknown>; headers?: Record<string, string>; query?: Record<string, string> };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base };
  for (const [key, value] of Object.entries(patch)) merged[key] = isObject(value) && isObject(merged[key]) ? merge(merged[key], value) : value;
  return merged;
}

/** Keys of a layer that select or address rather than configure the provider. */
const SELECTION_KEYS = new Set(['integrationIdentifier', '_passthrough']);

/**
 * The trigger's overrides for one provider call, layered as Novu does (novu-semantics.md §1.8):
 * `overrides.<channel>`, then `overrides.<providerId>` (legacy), then `overrides.providers.<providerId>`,
 * then `overrides.steps.<step>.providers.<providerId>` (the step named by any of its keys: id, uuid, name).
 */
export function providerOverrides(overrides: Record<string, unknown>, channel: Channel, providerId: string, stepKeys: string[]): ProviderOverrides {
  const steps = isObject(overrides.steps) ? overrides.steps : {};
  const stepLayer = stepKeys.map((key) => steps[key]).find(isObject);
  const layers = [
    overrides[channel],
    overrides[providerId],
    isObject(overrides.providers) ? overrides.providers[providerId] : undefined,
    isObject(stepLayer) && isObject(stepLayer.providers) ? stepLayer.providers[providerId] : undefined,
  ].filter(isObject);
  let data: Record<string, unknown> = {};
  let passthrough: Record<string, unknown> | undefined;
  for (const layer of layers) {
    const { _passthrough, ...rest } = layer;
    data = merge(data, Object.fromEntries(Object.entries(rest).filter(([key]) => !SELECTION_KEYS.has(key))));
    if (isObject(_passthrough)) passthrough = merge(passthrough ?? {}, _passthrough);
  }
  return { data, ...(passthrough ? { passthrough: passthrough } : {}) };
}
