/** A query value given once is a string, repeated it is an array: always an array here. */
export const toArray = ({ value }: { value: unknown }) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);
