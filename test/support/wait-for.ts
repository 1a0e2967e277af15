/** Polls until `probe` returns a truthy value (returned), or fails after `timeoutMs` with the last value seen. */
export async function waitFor<T>(probe: () => Promise<T | false | null | undefined>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | false | null | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`waitFor timed out; last value: ${JSON.stringify(last)?.slice(0, 2000)}`);
}
