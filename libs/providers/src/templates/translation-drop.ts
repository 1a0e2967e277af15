import { Drop } from 'liquidjs';
import { TemplateTranslations } from '@app/delivery';

/** Renders a translation's text (Liquid) with the template's variables, and `count` when one is given. */
export type RenderTranslation = (text: string, count: number | undefined) => string;

/** A translation text renders `{{ t.… }}` of its own; deeper than this, a key renders as itself (a loop of keys). */
const MAX_DEPTH = 5;

/**
 * `t` in a Liquid template: `{{ t.email.subject }}` reads the key `email.subject` when it is printed
 * or filtered, so nested keys and flat keys with dots read alike. A missing key prints its fallback —
 * a `default` filter's, else the key itself —, never an empty string. Private fields keep every name
 * free for keys.
 */
export class TranslationDrop extends Drop {
  readonly #translations: TemplateTranslations;
  readonly #render: RenderTranslation;
  readonly #path: string[];
  readonly #count: number | undefined;
  readonly #depth: { current: number };
  #resolved?: { found: boolean; text: string };

  constructor(translations: TemplateTranslations, render: RenderTranslation, path: string[] = [], count?: number, depth = { current: 0 }) {
    super();
    this.#translations = translations;
    this.#render = render;
    this.#path = path;
    this.#count = count;
    this.#depth = depth;
  }

  override liquidMethodMissing(key: string | number): TranslationDrop {
    return new TranslationDrop(this.#translations, this.#render, [...this.#path, String(key)], this.#count, this.#depth);
  }

  /** The same key, in its plural form for `count` (`{{ t.cart.items | count: payload.n }}`). */
  static withCount(drop: TranslationDrop, count: unknown): TranslationDrop {
    const number = typeof count === 'number' ? count : Number(count);
    return new TranslationDrop(drop.#translations, drop.#render, drop.#path, Number.isFinite(number) ? number : undefined, drop.#depth);
  }

  /** The key's rendered text, and whether a locale had it. */
  static resolve(drop: TranslationDrop): { found: boolean; text: string } {
    if (drop.#resolved) return drop.#resolved;
    const key = drop.#path.join('.');
    const text = key === '' ? undefined : drop.#translations.lookup(key, drop.#count);
    if (text === undefined || drop.#depth.current >= MAX_DEPTH) return (drop.#resolved = { found: false, text: key });
    drop.#depth.current++;
    try {
      return (drop.#resolved = { found: true, text: drop.#render(text, drop.#count) });
    } finally {
      drop.#depth.current--;
    }
  }

  override valueOf(): string {
    return TranslationDrop.resolve(this).text;
  }

  override toString(): string {
    return this.valueOf();
  }
}
