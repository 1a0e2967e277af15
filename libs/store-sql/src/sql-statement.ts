/**
 * A statement, or a piece of one, with its values kept apart from its text. In a `sql` template each
 * interpolated value becomes a parameter, numbered ($1, $2, …) when the text is read, so no statement
 * counts its parameters; an interpolated Sql is spliced in with its own values. Table and column
 * names reach the text only through `raw`, and only from constants.
 */
export class Sql {
  /** Text around the values: one more piece than there are values. */
  readonly pieces: readonly string[];
  readonly values: readonly unknown[];

  constructor(pieces: readonly string[], values: readonly unknown[]) {
    const flat = [pieces[0]];
    const flatValues: unknown[] = [];
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value instanceof Sql) {
        flat[flat.length - 1] += value.pieces[0];
        for (let j = 0; j < value.values.length; j++) {
          flatValues.push(value.values[j]);
          flat.push(value.pieces[j + 1]);
        }
        flat[flat.length - 1] += pieces[i + 1];
      } else {
        flatValues.push(value);
        flat.push(pieces[i + 1]);
      }
    }
    this.pieces = flat;
    this.values = flatValues;
  }

  /** The text with PostgreSQL's numbered placeholders. */
  get text(): string {
    let text = this.pieces[0];
    for (let i = 1; i < this.pieces.length; i++) text += `$${i}${this.pieces[i]}`;
    return text;
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
