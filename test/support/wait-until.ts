import { inspect } from 'node:util';

/** How often `waitUntil` reads again, and how long it waits when the caller names no time. */
const POLL_MS = 50;
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The one way tests wait for a state (they never sleep): reads `read()` every 50 ms until `ok`
 * accepts the value, and answers that value. Without `ok` it waits until `read()` answers a truthy
 * value and answers it (`null`, `undefined` and `false` mean "not yet"). After `timeoutMs` (15 s
 * unless given) it throws, naming `what` was awaited and the last value read. An error thrown by
 * `read` or `ok` ends the wait at once.
 *
 *     await waitUntil('the terminal is connected', () => terminal.isConnected);
 *     const n = await waitUntil('both punches are stored', () => punchCount(), (count) => count === 2, 30_000);
 */
export function waitUntil<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs?: number): Promise<T>;
export function waitUntil<T>(what: string, read: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs?: number): Promise<T>;
export async function waitUntil<T>(what: string, read: () => Promise<T> | T, okOrTimeout?: ((value: T) => boolean) | number, timeoutMs?: number): Promise<T> {
  const ok = typeof okOrTimeout === 'function' ? okOrTimeout : (value: T) => Boolean(value);
  const limit = (typeof okOrTimeout === 'number' ? okOrTimeout : timeoutMs) ?? DEFAULT_TIMEOUT_MS;
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > limit) {
      throw new Error(`waited ${((Date.now() - started) / 1000).toFixed(1)} s for ${what}; the last value read was ${describe(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A value as a failure message shows it: one line, at most 2,000 characters. */
function describe(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 500 });
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
