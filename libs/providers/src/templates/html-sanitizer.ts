import sanitize from 'sanitize-html';

const DOCTYPE = /^\s*<!DOCTYPE[^>]*>/i;
const EVENT_HANDLER = /^on/i;

/**
 * As Novu sanitises v2 output: sanitize-html's tags plus those of a whole email document (style,
 * img, html, head, body, meta, title, link), every attribute kept but event handlers (`on…`, which
 * Novu keeps), URLs limited to sanitize-html's safe schemes; scripts, iframes and forms removed.
 */
const OPTIONS: sanitize.IOptions = {
  allowedTags: [...sanitize.defaults.allowedTags, 'style', 'img', 'html', 'head', 'body', 'meta', 'title', 'link', 'center', 'font'],
  allowedAttributes: false,
  allowedSchemesByTag: { img: ['http', 'https', 'cid', 'data'] },
  // Styles are kept as written: email layouts live in them.
  allowVulnerableTags: true,
  parseStyleAttributes: false,
  parser: { lowerCaseAttributeNames: true },
  transformTags: {
    '*': (tagName, attribs) => ({
      tagName,
      attribs: Object.fromEntries(Object.entries(attribs).filter(([name]) => !EVENT_HANDLER.test(name))),
    }),
  },
};

/** Rendered HTML without active content; a leading DOCTYPE (which sanitize-html drops) is kept. */
export function sanitizeHtml(html: string): string {
  if (!html) return html;
  const doctype = DOCTYPE.exec(html)?.[0].trim();
  const clean = sanitize(html, OPTIONS);
  return doctype ? `${doctype}${clean}` : clean;
}
