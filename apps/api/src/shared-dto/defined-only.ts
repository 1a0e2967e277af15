/** The object without its undefined fields: Novu's answers leave an unset field out, never null. */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
