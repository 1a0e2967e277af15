import { isDeepStrictEqual } from 'node:util';
import { Layout, LayoutContent, defaultLayoutOf, layoutContent } from './layout';

/** An environment's layouts, and which of them is its default. */
export interface LayoutSet {
  layouts: Layout[];
  defaultId: string | null;
}

export function layoutSet(layouts: Layout[]): LayoutSet {
  return { layouts, defaultId: defaultLayoutOf(layouts)?.id ?? null };
}

/** How one layout differs between the source and the target environment, matched by layoutId. */
export interface LayoutDiff {
  layoutId: string;
  action: 'added' | 'modified' | 'deleted' | 'unchanged';
  source: Layout | null;
  target: Layout | null;
  /** Whether it is its environment's default, on each side. */
  sourceIsDefault: boolean;
  targetIsDefault: boolean;
  /** The fields that differ: the target's values, and the source's. */
  fields: { previous: Partial<LayoutContent>; next: Partial<LayoutContent> } | null;
}

const CONTENT_FIELDS = ['name', 'isTranslationEnabled', 'controlValues', 'isDefault'] as const;

export function diffLayouts(source: LayoutSet, target: LayoutSet): LayoutDiff[] {
  const targets = new Map(target.layouts.map((layout) => [layout.layoutId, layout]));
  const sources = new Set(source.layouts.map((layout) => layout.layoutId));
  const diffs = source.layouts.map((from): LayoutDiff => {
    const to = targets.get(from.layoutId) ?? null;
    const sourceIsDefault = from.id === source.defaultId;
    const targetIsDefault = !!to && to.id === target.defaultId;
    if (!to) return { layoutId: from.layoutId, action: 'added', source: from, target: null, sourceIsDefault, targetIsDefault, fields: null };
    const next = layoutContent(from, sourceIsDefault);
    const previous = layoutContent(to, targetIsDefault);
    const changed = CONTENT_FIELDS.filter((field) => !isDeepStrictEqual(previous[field], next[field]));
    const fields = changed.length
      ? {
          previous: Object.fromEntries(changed.map((field) => [field, previous[field]])) as Partial<LayoutContent>,
          next: Object.fromEntries(changed.map((field) => [field, next[field]])) as Partial<LayoutContent>,
        }
      : null;
    return { layoutId: from.layoutId, action: fields ? 'modified' : 'unchanged', source: from, target: to, sourceIsDefault, targetIsDefault, fields };
  });
  for (const to of target.layouts) {
    if (sources.has(to.layoutId)) continue;
    diffs.push({
      layoutId: to.layoutId,
      action: 'deleted',
      source: null,
      target: to,
      sourceIsDefault: false,
      targetIsDefault: to.id === target.defaultId,
      fields: null,
    });
  }
  return diffs;
}

/** A layout a workflow's email steps name: whether the target has it (else publishing the workflow needs it published too). */
export interface LayoutDependency {
  layoutId: string;
  name: string;
  inTarget: boolean;
}

export function layoutDependencies(layoutIds: string[], diffs: LayoutDiff[]): LayoutDependency[] {
  const byId = new Map(diffs.map((diff) => [diff.layoutId, diff]));
  return layoutIds.map((layoutId) => {
    const diff = byId.get(layoutId);
    return { layoutId, name: (diff?.source ?? diff?.target)?.name ?? layoutId, inTarget: !!diff?.target };
  });
}
