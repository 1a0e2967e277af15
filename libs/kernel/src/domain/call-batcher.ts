/**
 * Coalesces the calls that concurrent handlers make within one turn of the event loop into one
 * call per group: twenty step handlers each reading "their" job become one `WHERE id = ANY(...)`
 * statement, twenty trigger requests one queue MULTI. Each round trip costs a syscall pair and,
 * for writes, a commit, which on a small machine outweigh the work itself.
 *
 * A batch that fails is retried one input at a time, so a bad input fails alone and the others
 * still get their answer. Callers see exactly the semantics of the unbatched call.
 */
export class CallBatcher<I, O> {
  private readonly pending = new Map<string, { inputs: I[]; settle: { resolve: (value: O) => void; reject: (error: unknown) => void }[] }>();
  private scheduled = false;

  /**
   * @param runBatch answers one output per input, in order; every input of a call shares a group key.
   * @param maxBatch weight per statement at most (larger groups are split); an input weighs 1
   *   unless `weigh` says otherwise (a call inserting 300 rows weighs 300).
   */
  constructor(
    private readonly runBatch: (group: string, inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
    private readonly weigh: (input: I) => number = () => 1,
  ) {}

  run(group: string, input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let entry = this.pending.get(group);
      if (!entry) this.pending.set(group, (entry = { inputs: [], settle: [] }));
      entry.inputs.push(input);
      entry.settle.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // after the I/O callbacks of this turn: every handler woken by them has had its say
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = [...this.pending.entries()];
    this.pending.clear();
    for (const [group, { inputs, settle }] of groups) {
      let start = 0;
      let weight = 0;
      for (let index = 0; index < inputs.length; index++) {
        const next = this.weigh(inputs[index]);
        if (index > start && weight + next > this.maxBatch) {
          void this.execute(group, inputs.slice(start, index), settle.slice(start, index));
          start = index;
          weight = 0;
        }
        weight += next;
      }
      void this.execute(group, inputs.slice(start), settle.slice(start));
    }
  }

  private async execute(group: string, inputs: I[], settle: { resolve: (value: O) => void; reject: (error: unknown) => void }[]): Promise<void> {
    try {
      const outputs = await this.runBatch(group, inputs);
      settle.forEach(({ resolve }, index) => resolve(outputs[index]));
    } catch (error) {
      if (inputs.length === 1) return settle[0].reject(error);
      await Promise.all(
        inputs.map((input, index) =>
          this.runBatch(group, [input]).then(
            ([output]) => settle[index].resolve(output),
            (single) => settle[index].reject(single),
          ),
        ),
      );
    }
  }
}
