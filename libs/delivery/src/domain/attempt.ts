/**
 * Which run of a pipeline job this is, counted over the job's whole retry budget: a first step the
 * fan-out ran inline and handed to the steps queue for a retry keeps counting from where it was.
 */
export class Attempt {
  private constructor(
    /** Runs made before this one. */
    readonly made: number,
    /** Runs allowed in all, the first included. */
    readonly allowed: number,
  ) {}

  static first(allowed: number): Attempt {
    return new Attempt(0, allowed);
  }

  static of(made: number, allowed: number): Attempt {
    return new Attempt(made, allowed);
  }

  /** This run, counted from 1. */
  get number(): number {
    return this.made + 1;
  }

  /** No run follows this one, whatever it asks for. */
  get isLast(): boolean {
    return this.number >= this.allowed;
  }

  /** The run after this one. */
  next(): Attempt {
    return new Attempt(this.made + 1, this.allowed);
  }
}
