/**
 * Reads `read()` every 100 ms until `ok` accepts the value, and answers that value; after
 * `timeoutMs` it throws, naming `what` and the last value read (tests wait on state, never sleep).
 */
export async function waitUntil<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
