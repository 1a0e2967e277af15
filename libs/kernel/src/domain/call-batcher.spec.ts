import { CallBatcher } from './call-batcher';

describe('CallBatcher', () => {
  it('runs the calls of one turn as one batch per group, answering each caller in order', async () => {
    const batches: [string, number[]][] = [];
    const batcher = new CallBatcher<number, number>(async (group, inputs) => {
      batches.push([group, inputs]);
      return inputs.map((n) => n * 10);
    });
    const answers = await Promise.all([batcher.run('a', 1), batcher.run('b', 2), batcher.run('a', 3)]);
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
    // a later turn is a new batch
    expect(await batcher.run('a', 4)).toBe(40);
    expect(batches).toHaveLength(3);
  });

  it('splits a group larger than the batch limit', async () => {
    const sizes: number[] = [];
    const batcher = new CallBatcher<number, number>(async (_, inputs) => {
      sizes.push(inputs.length);
      return inputs;
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.run('', n)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('splits by weight when inputs weigh differently (a call inserting many rows)', async () => {
    const batches: number[][] = [];
    const batcher = new CallBatcher<number[], number>(
      async (_, calls) => {
        batches.push(calls.map((rows) => rows.length));
        return calls.map((rows) => rows.length);
      },
      5,
      (rows) => rows.length,
    );
    const calls = [[1, 2], [3, 4], [5, 6, 7, 8, 9, 10, 11], [12]];
    expect(await Promise.all(calls.map((rows) => batcher.run('', rows)))).toEqual([2, 2, 7, 1]);
    // an input heavier than the limit still goes, alone
    expect(batches).toEqual([[2, 2], [7], [1]]);
  });

  it('retries a failed batch one input at a time, so only the bad input fails', async () => {
    const batcher = new CallBatcher<number, number>(async (_, inputs) => {
      if (inputs.includes(13)) throw new Error(`unlucky batch of ${inputs.length}`);
      return inputs;
    });
    const results = await Promise.allSettled([1, 13, 2].map((n) => batcher.run('', n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('unlucky batch of 1');
  });
});
