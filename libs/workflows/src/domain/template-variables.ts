import { isPreviousStepPart } from '@app/kernel';
import { StepTemplate, WorkflowStep } from './workflow';

// Roots that templates get from the engine rather than from the trigger payload.
const RESERVED_ROOTS = new Set(['subscriber', 'step', 'steps', 'tenant', 'actor', 'env', 'context', 'workflow', 'this', 'else', 'true', 'false', 'null']);
const CONDITION_TAGS = new Set(['if', 'unless', 'each', 'with', 'case', 'when', 'elsif', 'echo']);
const PATH = /^[A-Za-z_$][\w$]*(\.[\w$]+)*$/;
const EXPRESSION = /\{\{\{?~?\s*([^{}]*?)\s*~?\}?\}\}|\{%-?\s*([^%]*?)\s*-?%\}/g;

export interface TemplateVariables {
  variables: string[];
  subscriberVariables: string[];
}

/**
 * The payload and subscriber variables a workflow's templates use, for the trigger's
 * `variables`/`subscriberVariables`. Understands `{{payload.x}}` (Liquid), bare `{{x}}`
 * (Handlebars reads payload keys at the root), block helpers and filters.
 */
export function collectTemplateVariables(steps: readonly WorkflowStep[]): TemplateVariables {
  const variables = new Set<string>();
  const subscriberVariables = new Set<string>();
  // Names a template declares itself (loop items, assignments) are not trigger variables.
  const locals = new Set<string>();
  const visit = (text: string) => {
    for (const match of text.matchAll(EXPRESSION)) {
      const declared = /^(?:for|tablerow|assign|capture)\s+([A-Za-z_]\w*)/.exec((match[2] ?? '').trim())?.[1];
      if (declared) locals.add(declared);
      const path = pathOf(match[1] ?? match[2] ?? '', match[2] !== undefined);
      if (!path) continue;
      const [root, ...rest] = path.split('.');
      if (locals.has(root)) continue;
      if (root === 'payload') {
        if (rest.length) variables.add(rest.join('.'));
      } else if (root === 'subscriber') {
        if (rest.length) subscriberVariables.add(rest.join('.'));
      } else if (!RESERVED_ROOTS.has(root) && !root.startsWith('@')) {
        variables.add(path);
      }
    }
  };
  for (const step of steps) {
    for (const variant of [step, ...step.variants]) {
      for (const text of templateTexts(variant.template)) visit(text);
      for (const filter of variant.filters)
        for (const part of filter.children) if (!isPreviousStepPart(part) && typeof part.value === 'string') visit(part.value);
    }
  }
  return { variables: [...variables], subscriberVariables: [...subscriberVariables] };
}

function pathOf(expression: string, isTag: boolean): string | undefined {
  const text = expression.trim().replace(/^[#^]\s*/, '');
  if (!text || /^[/!>]/.test(text)) return undefined;
  const tokens = text.split('|')[0].trim().split(/\s+/);
  const [first, second] = tokens;
  let candidate: string | undefined;
  if (first === 'for' || first === 'tablerow') candidate = tokens[tokens.indexOf('in') + 1];
  else if (CONDITION_TAGS.has(first)) candidate = second;
  else if (isTag)
    candidate = undefined; // assign, capture, render…: not a variable read we can name
  else if (second !== undefined && /^[A-Za-z_]\w*$/.test(first) && !RESERVED_ROOTS.has(first) && first !== 'payload')
    candidate = second; // {{helper path}}
  else candidate = first;
  return candidate && PATH.test(candidate) ? candidate : undefined;
}

function templateTexts(template: StepTemplate): string[] {
  const texts: (string | undefined)[] = [template.subject, template.preheader, template.title, template.senderName, template.avatar];
  if (typeof template.content === 'string') texts.push(template.content);
  else for (const block of template.content ?? []) texts.push(block.content, block.url);
  texts.push(template.cta?.data?.url);
  for (const button of template.cta?.action?.buttons ?? []) texts.push(button.content, button.resultContent);
  return texts.filter((text): text is string => typeof text === 'string' && text.length > 0);
}
