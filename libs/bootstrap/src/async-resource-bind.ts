import { AsyncResource } from 'node:async_hooks';

/**
 * Node 20's `AsyncResource#bind` gives every bound function a deprecated `asyncResource` getter and
 * setter (DEP0172), each made by `util.deprecate`, which resets the wrapper's prototype: a cost Node
 * 24 cut (nodejs/node#58218, #59195), and nodejs/node#58618 removes the property altogether.
 * Fastify binds once per request body and Nest twice per request through an interceptor, and on
 * the trigger route those three binds were an eighth of the api's CPU. This `bind` does the rest of
 * what Node's does: the function runs in the resource's async scope with its `this`, arguments,
 * return value and `length`. It changes nothing where bound functions no longer carry the property.
 * Returns whether it replaced `bind`.
 */
export function useLeanAsyncResourceBind(): boolean {
  const probe = new AsyncResource('lean-bind-probe').bind(() => undefined);
  if (!Object.prototype.hasOwnProperty.call(probe, 'asyncResource')) return false;
  AsyncResource.prototype.bind = function bind(this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) {
    if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function');
    const run = (self: unknown, args: unknown[]) => this.runInAsyncScope(fn, self, ...args);
    const bound =
      thisArg === undefined
        ? function (this: unknown, ...args: unknown[]) {
            return run(this, args);
          }
        : (...args: unknown[]) => run(thisArg, args);
    Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
    return bound;
  } as unknown as typeof AsyncResource.prototype.bind;
  return true;
}
