import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { useLeanAsyncResourceBind } from './async-resource-bind';

describe('useLeanAsyncResourceBind', () => {
  const original = AsyncResource.prototype.bind;
  beforeAll(() => {
    expect(useLeanAsyncResourceBind()).toBe(true); // Node 20's bind carries the deprecated property
  });
  afterAll(() => {
    AsyncResource.prototype.bind = original;
  });

  it('replaces bind once, then finds nothing left to replace', () => {
    expect(AsyncResource.prototype.bind).not.toBe(original);
    expect(useLeanAsyncResourceBind()).toBe(false);
  });

  it('runs the function in the async context it was bound in, as the static and instance forms did', async () => {
    const storage = new AsyncLocalStorage<string>();
    const viaStatic = storage.run('request-1', () => AsyncResource.bind(() => storage.getStore()));
    const viaInstance = storage.run('request-2', () => new AsyncResource('probe').bind(() => storage.getStore()));
    // called from elsewhere: another context, and a later turn of the event loop
    const seen = await storage.run(
      'elsewhere',
      () => new Promise<(string | undefined)[]>((resolve) => setImmediate(() => resolve([viaStatic(), viaInstance()]))),
    );
    expect(seen).toEqual(['request-1', 'request-2']);
  });

  it("keeps the caller's this, the arguments, the return value, thrown errors and length", () => {
    function add(this: { base: number }, a: number, b: number) {
      return this.base + a + b;
    }
    const bound = new AsyncResource('probe').bind(add);
    expect(bound.call({ base: 1 }, 2, 3)).toBe(6);
    expect(bound.length).toBe(2);
    const resource = new AsyncResource('probe');
    const bindWithThis = resource.bind as unknown as (fn: typeof add, thisArg: unknown) => typeof add; // Node's thisArg, missing from its types
    const withThis = bindWithThis.call(resource, add, { base: 10 });
    expect(withThis.call({ base: 1 }, 2, 3)).toBe(15);
    const failing = new AsyncResource('probe').bind(() => {
      throw new Error('boom');
    });
    expect(() => failing()).toThrow('boom');
    expect(() => new AsyncResource('probe').bind(42 as unknown as () => void)).toThrow(TypeError);
  });

  it('leaves out the deprecated asyncResource property', () => {
    const bound = AsyncResource.bind(() => undefined);
    expect(Object.prototype.hasOwnProperty.call(bound, 'asyncResource')).toBe(false);
  });
});
