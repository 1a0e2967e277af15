import { compile } from 'html-to-text';

export interface EmailBlockHtml {
  type: 'text' | 'button';
  /** Rendered (HTML-escaped) content: the block's markup, or the button's label. */
  content: string;
  url?: string;
  textAlign?: 'left' | 'right' | 'center';
}

const escapeAttribute = (value: string) =>
  value
    .replace(/&(?!#?\w+;)/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;');

/**
 * The HTML body of an editor-built email: a plain, widely supported table layout (inline styles,
 * 600 px column), the preheader as hidden preview text, text blocks as they were written and
 * buttons as links styled as buttons.
 */
export function layoutEmail(subject: string, preheader: string | undefined, blocks: EmailBlockHtml[]): string {
  const rows = blocks
    .map((block) => {
      const align = block.textAlign ?? 'left';
      if (block.type === 'button') {
        const href = block.url ? ` href="${escapeAttribute(block.url)}"` : '';
        return `<tr><td style="padding:12px 24px;text-align:${align}"><a${href} style="display:inline-block;padding:10px 20px;background:#2f6fed;color:#ffffff;border-radius:4px;text-decoration:none;font-weight:600">${block.content}</a></td></tr>`;
      }
      return `<tr><td style="padding:8px 24px;text-align:${align};line-height:1.5">${block.content}</td></tr>`;
    })
    .join('\n');
  const hidden = preheader ? `<div class="preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all">${preheader}</div>\n` : '';
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${subject}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2328">
${hidden}<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" width="600" cellspacing="0" cellpadding="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:6px">
${rows}
</table></td></tr></table>
</body></html>`;
}

/**
 * The text part of an email from its HTML: links kept as `text [url]`, the hidden preheader and head left out.
 * Compiled once: `convert` builds its options and selector tree again on every call, the largest cost of an
 * email delivery in the worker's profile (docs/performance-log.md).
 */
const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'div.preheader', format: 'skip' },
    { selector: 'title', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'block' },
  ],
});

export function emailText(html: string): string {
  return htmlToText(html).trim();
}
