/** What SqlClient runs: a text with numbered placeholders, and their values. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** A value a statement built once takes when it runs (Sql.bind): one placeholder however often it appears. */
class Param {
  constructor(readonly name: string) {}
}

export const param = (name: string): Param => new Param(name);

/**
 * A statement, or a piece of one, with its values kept apart from its text. In a `sql` template each
 * interpolated value becomes a parameter, numbered ($1, $2, …) when the text is read, so no statement
 * counts its parameters; an interpolated Sql is spliced in with its own values. Table and column
 * names reach the text only through `raw`, and only from constants.
 */
export class Sql implements Statement {
  /** Text around the parts: one more piece than there are parts. */
  readonly pieces: readonly string[];
  /** The values in text order, a `param` where the value comes at bind time. */
  readonly parts: readonly unknown[];
  private numbered?: { text: string; slots: unknown[] };

  constructor(pieces: readonly string[], parts: readonly unknown[]) {
    const flat = [pieces[0]];
    const flatParts: unknown[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part instanceof Sql) {
        flat[flat.length - 1] += part.pieces[0];
        for (let j = 0; j < part.parts.length; j++) {
          flatParts.push(part.parts[j]);
          flat.push(part.pieces[j + 1]);
        }
        flat[flat.length - 1] += pieces[i + 1];
      } else {
        flatParts.push(part);
        flat.push(pieces[i + 1]);
      }
    }
    this.pieces = flat;
    this.parts = flatParts;
  }

  /** The text with PostgreSQL's numbered placeholders, and what each placeholder holds. */
  private number(): { text: string; slots: unknown[] } {
    if (this.numbered) return this.numbered;
    const slots: unknown[] = [];
    const named = new Map<string, number>();
    let text = this.pieces[0];
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i];
      let n = part instanceof Param ? named.get(part.name) : undefined;
      if (n === undefined) {
        n = slots.push(part);
        if (part instanceof Param) named.set(part.name, n);
      }
      text += `$${n}${this.pieces[i + 1]}`;
    }
    return (this.numbered = { text, slots });
  }

  get text(): string {
    return this.number().text;
  }

  /** The placeholders' values; a statement with a `param` has them only once bound. */
  get values(): readonly unknown[] {
    return this.bind({}).values;
  }

  /**
   * The statement with each `param` given its value: a statement run often is built once, and only
   * its values change from call to call (the same text, so queryPrepared's plan is reused).
   */
  bind(values: Readonly<Record<string, unknown>>): Statement {
    const { text, slots } = this.number();
    return {
      text,
      values: slots.map((slot) => {
        if (!(slot instanceof Param)) return slot;
        if (!(slot.name in values)) throw new Error(`no value for the statement's parameter ${slot.name}`);
        return values[slot.name];
      }),
    };
  }
}

export function sql(pieces: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(pieces, values);
}

/** Text taken as it is: a name or keyword from the code, never a value from outside. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

export const empty = raw('');

/** The parts, `separator` between them. */
export function join(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return empty;
  return new Sql(['', ...parts.slice(1).map(() => separator), ''], parts);
}
