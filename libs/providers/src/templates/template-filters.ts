import { formatDateValue } from './handlebars.engine';

/** Novu's Handlebars helpers (and v2 Liquid filters) that are plain value transforms. */
export const TEMPLATE_FILTERS: Record<string, (value: unknown, ...args: unknown[]) => unknown> = {
  uppercase: (value) => (value === undefined || value === null ? '' : String(value).toUpperCase()),
  lowercase: (value) => (value === undefined || value === null ? '' : String(value).toLowerCase()),
  titlecase: (value) =>
    value === undefined || value === null
      ? ''
      : String(value)
          .toLowerCase()
          .replace(/(^|[\s\-_])(\p{L})/gu, (_m, sep: string, letter: string) => sep + letter.toUpperCase()),
  /** Handlebars form: the word only (`{{count}} {{pluralize count "item" "items"}}`). */
  pluralize: (count, singular, plural) => {
    const one = singular === undefined ? '' : String(singular);
    const many = plural === undefined ? `${one}s` : String(plural);
    return Number(count) === 1 ? one : many;
  },
  /** `{{ date | dateFormat: 'yyyy-MM-dd HH:mm' }}` (date-fns tokens, as Novu's helper), UTC unless a zone is given. */
  dateFormat: (value, format, zone) => {
    const formatted = formatDateValue(value, typeof format === 'string' && format !== '' ? format : "yyyy-MM-dd'T'HH:mm:ss.SSSxxx", zone);
    return formatted === undefined || formatted === null ? '' : formatted;
  },
  /** `["a","b","c"] | toSentence` → "a, b and c". */
  toSentence: (value, lastSeparator) => {
    if (!Array.isArray(value)) return value === undefined || value === null ? '' : String(value);
    const items = value.map((v) => String(v));
    if (items.length <= 1) return items.join('');
    const last = typeof lastSeparator === 'string' ? lastSeparator : ' and ';
    return `${items.slice(0, -1).join(', ')}${last}${items[items.length - 1]}`;
  },
};
