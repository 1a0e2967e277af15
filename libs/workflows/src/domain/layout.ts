import type { FieldErrors } from './step-rules';
import { TRIGGER_IDENTIFIER_MAX_LENGTH, TRIGGER_IDENTIFIER_PATTERN, Workflow, slugify } from './workflow';
import { parseBlockDocument } from './workflow-controls';

/**
 * An email layout (Novu v2): the frame an email step's body is sent in. Its `controlValues.email.body`
 * is HTML (`editorType: html`) or a block editor document (`block`) holding `{{ content }}` where the
 * body goes. Email steps name it by `layoutId`, the identifier, unique in the environment.
 */
export const LAYOUT_EDITOR_TYPES = ['html', 'block'] as const;
export type LayoutEditorType = (typeof LAYOUT_EDITOR_TYPES)[number];

export interface LayoutEmailControls {
  body: string;
  editorType: LayoutEditorType;
}

export interface LayoutControlValues {
  email?: LayoutEmailControls;
}

export interface Layout {
  id: string;
  organizationId: string;
  environmentId: string;
  /** The identifier email steps name it by; it never changes. */
  layoutId: string;
  name: string;
  isTranslationEnabled: boolean;
  /** null: none stored, and an email framed in it is its body alone. */
  controlValues: LayoutControlValues | null;
  /** When it was made the default: the environment's default is the layout made so last (ties: the greater id). */
  defaultSince?: Date;
  creatorId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The variable that stands for the step's body in a layout. */
export const LAYOUT_CONTENT_VARIABLE = 'content';
const CONTENT_OUTPUT = /\{\{\s*content\s*\}\}/;

/** The frame a new layout starts with: a plain HTML document holding the body. */
export const NEW_LAYOUT_CONTROLS: LayoutControlValues = {
  email: {
    editorType: 'html',
    body: '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n<body>\n{{ content }}\n</body>\n</html>',
  },
};

/** The layout's identifier: the caller's, or the slug of its name (Novu's rule). */
export function layoutIdentifierFor(name: string, layoutId: string | undefined): string | FieldErrors {
  const candidate = layoutId ?? (slugify(name) || 'layout');
  if (TRIGGER_IDENTIFIER_PATTERN.test(candidate) && candidate.length <= TRIGGER_IDENTIFIER_MAX_LENGTH) return candidate;
  return {
    [layoutId === undefined ? 'name' : 'layoutId']: {
      messages: [`the layoutId "${candidate}" may only hold letters, digits, "-", "_", ".", ":" (at most ${TRIGGER_IDENTIFIER_MAX_LENGTH})`],
      value: layoutId ?? name,
    },
  };
}

type Node = { type?: unknown; text?: unknown; attrs?: Record<string, unknown>; content?: unknown };

/** A block editor node holding the body's place: a `content` variable, or text with `{{ content }}`. */
function holdsContent(node: Node): boolean {
  if (node.type === 'variable' && node.attrs?.id === LAYOUT_CONTENT_VARIABLE) return true;
  if (typeof node.text === 'string' && CONTENT_OUTPUT.test(node.text)) return true;
  return Array.isArray(node.content) && node.content.some((child) => child && typeof child === 'object' && holdsContent(child as Node));
}

/** What the body of a layout must be, as Novu checks it: a whole HTML document or a block editor document, with the body's place. */
export function layoutControlErrors(controlValues: LayoutControlValues): FieldErrors {
  const email = controlValues.email;
  if (!email) return {};
  const field = 'controlValues.email.body';
  const problem = (message: string): FieldErrors => ({
    [field]: { messages: [message], value: email.body.length > 200 ? `${email.body.slice(0, 200)}…` : email.body },
  });
  if (email.editorType === 'block') {
    const document = parseBlockDocument(email.body);
    if (!document) return problem('with editorType block the body is a block editor document: JSON of type "doc"');
    if (!holdsContent(document)) return problem('the layout body must hold the "content" variable, where the step’s body goes');
    return {};
  }
  const html = email.body.toLowerCase();
  if (!['<html', '</html>', '<body', '</body>'].every((tag) => html.includes(tag))) {
    return problem('with editorType html the body is a whole HTML document (<html> and <body>)');
  }
  if (!CONTENT_OUTPUT.test(email.body)) return problem('the layout body must hold {{ content }}, where the step’s body goes');
  return {};
}

/** The environment's default among these layouts: the one made default last (ties: the greater id). */
export function defaultLayoutOf<T extends Pick<Layout, 'id' | 'defaultSince'>>(layouts: readonly T[]): T | undefined {
  let found: T | undefined;
  for (const layout of layouts) {
    if (!layout.defaultSince) continue;
    const later = !found || layout.defaultSince.getTime() > found.defaultSince!.getTime();
    const tie = found && layout.defaultSince.getTime() === found.defaultSince!.getTime() && layout.id > found.id;
    if (later || tie) found = layout;
  }
  return found;
}

/** The layoutIds a workflow's email steps name (v2 `layoutId`), each once, in step order. */
export function layoutIdsOf(workflow: Pick<Workflow, 'steps'>): string[] {
  const ids = workflow.steps.flatMap((step) =>
    [step, ...step.variants].flatMap((variant) =>
      variant.template.type === 'email' && typeof variant.template.layoutId === 'string' ? [variant.template.layoutId] : [],
    ),
  );
  return [...new Set(ids)];
}

/** What publishing compares and copies of a layout: never its ids, times or who made it. */
export interface LayoutContent {
  name: string;
  isTranslationEnabled: boolean;
  controlValues: LayoutControlValues | null;
  isDefault: boolean;
}

export function layoutContent(layout: Layout, isDefault: boolean): LayoutContent {
  return { name: layout.name, isTranslationEnabled: layout.isTranslationEnabled, controlValues: layout.controlValues, isDefault };
}

/** A layout as the API shows it: with whether it is its environment's default. */
export interface ShownLayout extends Layout {
  isDefault: boolean;
}

/** A workflow that uses a layout: its workflowId and name. */
export interface LayoutUser {
  workflowId: string;
  name: string;
}

/** The layout's slug: its name's slug and its id (`<name>_ly_<id>`), which names it as its id does. */
export function layoutSlug(layout: Pick<Layout, 'id' | 'name'>): string {
  return `${slugify(layout.name) || 'layout'}_ly_${layout.id}`;
}

/** What a caller may name a layout by: its `_id`, its layoutId, or its slug (the id it ends with). */
export function layoutReference(value: string): string {
  return /_ly_([0-9a-f]{24})$/.exec(value)?.[1] ?? value;
}
