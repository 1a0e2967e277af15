import { TemplateRenderError } from '@app/delivery';
import { parseBlockDocument } from '@app/workflows';

/** A node of Novu's block editor document (Maily's TipTap JSON). */
interface BlockNode {
  type?: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: BlockNode[];
  content?: BlockNode[];
  [key: string]: unknown;
}

/** Attributes that hold a variable's name when their flag is set (Maily's button, image and link). */
const VARIABLE_ATTRIBUTES: [attribute: string, flag: string][] = [
  ['text', 'isTextVariable'],
  ['url', 'isUrlVariable'],
  ['src', 'isSrcVariable'],
  ['externalLink', 'isExternalLinkVariable'],
  ['href', 'isUrlVariable'],
];

/** `{{ name }}` (with Maily's fallback as Liquid's `default`) for a variable named in the editor. */
function liquidOutput(name: string, fallback: unknown): string {
  const withFallback = typeof fallback === 'string' && fallback !== '' ? ` | default: ${JSON.stringify(fallback)}` : '';
  return `{{ ${name}${withFallback} }}`;
}

/** A repeated node's children for item `index`: the list's path gets the index (`payload.items.name` → `payload.items[0].name`). */
function indexed(text: string, listPath: string, index: number): string {
  return text.replace(/\{\{([\s\S]*?)\}\}/g, (output, inner: string) => {
    const [path, ...filters] = inner.split('|');
    const trimmed = path.trim();
    if (trimmed !== listPath && !trimmed.startsWith(`${listPath}.`)) return output;
    const rest = trimmed.slice(listPath.length);
    return `{{ ${listPath}[${index}]${rest}${filters.length ? ` |${filters.join('|')}` : ''} }}`;
  });
}

/**
 * The document with every template in it rendered: variable nodes become their values as text, the
 * attributes an editor marks as variables and every string holding Liquid are rendered, a node whose
 * `showIfKey` renders falsy is left out, a `repeat` node repeats its content for each item of its `each`
 * list. Values are text to Maily's renderer (React escapes them), so a payload cannot add markup.
 */
class DocumentRenderer {
  constructor(private readonly render: (source: string) => string) {}

  nodes(nodes: BlockNode[] | undefined, repeat?: { path: string; index: number }): BlockNode[] {
    const result: BlockNode[] = [];
    for (const node of nodes ?? []) {
      const attrs = node.attrs ?? {};
      if (typeof attrs.showIfKey === 'string' && attrs.showIfKey !== '' && !this.holds(attrs.showIfKey, repeat)) continue;
      if ((node.type === 'repeat' || node.type === 'for') && typeof attrs.each === 'string') {
        result.push(...this.repeated(node, attrs.each, repeat));
        continue;
      }
      result.push(this.node(node, repeat));
    }
    return result;
  }

  private node(node: BlockNode, repeat?: { path: string; index: number }): BlockNode {
    const text = (source: string) => this.text(source, repeat);
    if (node.type === 'variable' && typeof node.attrs?.id === 'string') {
      return { type: 'text', text: text(liquidOutput(node.attrs.id, node.attrs.fallback)), ...(node.marks ? { marks: this.marks(node.marks, repeat) } : {}) };
    }
    const copy: BlockNode = { ...node };
    if (typeof node.text === 'string') copy.text = text(node.text);
    if (node.attrs) copy.attrs = this.attributes(node.attrs, repeat);
    if (node.marks) copy.marks = this.marks(node.marks, repeat);
    if (node.content) copy.content = this.nodes(node.content, repeat);
    return copy;
  }

  private marks(marks: BlockNode[], repeat?: { path: string; index: number }): BlockNode[] {
    return marks.map((mark) => (mark.attrs ? { ...mark, attrs: this.attributes(mark.attrs, repeat) } : mark));
  }

  private attributes(attrs: Record<string, unknown>, repeat?: { path: string; index: number }): Record<string, unknown> {
    const result: Record<string, unknown> = { ...attrs };
    for (const [attribute, flag] of VARIABLE_ATTRIBUTES) {
      const value = attrs[attribute];
      if (attrs[flag] === true && typeof value === 'string' && value !== '') {
        result[attribute] = liquidOutput(value, attrs.fallback);
        result[flag] = false;
      }
    }
    delete result.showIfKey;
    for (const [key, value] of Object.entries(result)) if (typeof value === 'string') result[key] = this.text(value, repeat);
    return result;
  }

  private repeated(node: BlockNode, each: string, outer?: { path: string; index: number }): BlockNode[] {
    const path = (outer ? indexed(`{{ ${each} }}`, outer.path, outer.index) : `{{ ${each} }}`).replace(/^\{\{\s*|\s*\}\}$/g, '');
    const items = this.render(`{{ ${path} | json }}`);
    let list: unknown;
    try {
      list = JSON.parse(items || 'null');
    } catch {
      list = undefined;
    }
    if (!Array.isArray(list)) return [];
    const limit = typeof node.attrs?.iterations === 'number' && node.attrs.iterations > 0 ? node.attrs.iterations : list.length;
    return list.slice(0, limit).flatMap((_, index) => this.nodes(node.content, { path, index }));
  }

  private holds(condition: string, repeat?: { path: string; index: number }): boolean {
    const value = this.text(`{{ ${condition} }}`, repeat).trim().toLowerCase();
    return value !== '' && value !== 'false' && value !== 'null' && value !== 'undefined' && value !== '0';
  }

  private text(source: string, repeat?: { path: string; index: number }): string {
    if (!source.includes('{{') && !source.includes('{%')) return source;
    return this.render(repeat ? indexed(source, repeat.path, repeat.index) : source);
  }
}

type MailyRender = typeof import('@maily-to/render').render;
let maily: Promise<MailyRender> | undefined;

/**
 * Novu's block editor document rendered to HTML: its templates rendered first (`render`, Liquid with
 * the step's variables), then the document laid out by Maily's renderer (`@maily-to/render`, loaded
 * on first use: it brings React). `preview` is the preheader Maily hides at the top.
 */
export async function renderBlockEmail(source: string, render: (source: string) => string, preview?: string): Promise<string> {
  const document: BlockNode | undefined = parseBlockDocument(source);
  if (!document) throw new TemplateRenderError('The email body is not a block editor document (JSON of type "doc")', 'parse', {});
  const rendered: BlockNode = { ...document, content: new DocumentRenderer(render).nodes(document.content) };
  maily ??= import('@maily-to/render').then((module) => module.render);
  try {
    return await (
      await maily
    )(rendered, preview ? { preview } : {});
  } catch (error) {
    throw new TemplateRenderError(`The block editor document could not be rendered: ${(error as Error).message}`, 'render', {
      cause: (error as Error).message,
    });
  }
}

/** What is inside a document's `<body>` (the whole text when it has none). */
export function documentBody(html: string): string {
  return /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
}
