/**
 * Novu v1 templates are Handlebars. Their common forms map one-to-one onto Liquid, so stored
 * workflows keep rendering: `{{{x}}}` (unescaped, Liquid never escapes), helper calls
 * `{{uppercase payload.name}}` → `{{ payload.name | uppercase }}`, and the `#if` / `#unless` /
 * `#each` / `else` blocks (`this` and `@index` inside `#each`). Anything else is left to Liquid.
 */
export const HANDLEBARS_HELPER_FILTERS = ['uppercase', 'lowercase', 'titlecase', 'json', 'pluralize', 'dateFormat'] as const;

const HELPER_CALL_SOURCE = `\\{\\{~?\\s*(${HANDLEBARS_HELPER_FILTERS.join('|')})\\s+(?![|}])([^}]+?)\\s*~?\\}\\}`;
const HELPER_CALL = new RegExp(HELPER_CALL_SOURCE, 'g');
const HAS_HELPER_CALL = new RegExp(HELPER_CALL_SOURCE);

function splitArgs(text: string): string[] {
  const args: string[] = [];
  const pattern = /"[^"]*"|'[^']*'|[^\s]+/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) args.push(match[0]);
  return args;
}

/** Cheap test first: most templates have no Handlebars-only syntax at all. */
export function looksLikeHandlebars(source: string): boolean {
  return /\{\{\{|\{\{~?\s*[#/^]|\{\{~?\s*else\s*~?\}\}|@index/.test(source) || HAS_HELPER_CALL.test(source);
}

export function translateHandlebars(source: string): string {
  if (!looksLikeHandlebars(source)) return source;
  return source
    .replace(/\{\{\{\s*([^}]+?)\s*\}\}\}/g, '{{ $1 }}')
    .replace(HELPER_CALL, (_whole, helper: string, rest: string) => {
      const [subject, ...args] = splitArgs(rest);
      return args.length > 0 ? `{{ ${subject} | ${helper}: ${args.join(', ')} }}` : `{{ ${subject} | ${helper} }}`;
    })
    .replace(/\{\{~?\s*#if\s+([^}]+?)\s*~?\}\}/g, '{% if $1 %}')
    .replace(/\{\{~?\s*\/if\s*~?\}\}/g, '{% endif %}')
    .replace(/\{\{~?\s*#unless\s+([^}]+?)\s*~?\}\}/g, '{% unless $1 %}')
    .replace(/\{\{~?\s*\/unless\s*~?\}\}/g, '{% endunless %}')
    .replace(/\{\{~?\s*#each\s+([^}]+?)\s*~?\}\}/g, '{% for this in $1 %}')
    .replace(/\{\{~?\s*\/each\s*~?\}\}/g, '{% endfor %}')
    .replace(/\{\{~?\s*else\s*~?\}\}/g, '{% else %}')
    .replace(/@index/g, 'forloop.index0');
}
