/**
 * Runs `check` on every item, `size` at a time (the next batch starts when the whole batch is done):
 * for the requests of a sweep that change nothing and do not depend on each other, each answer
 * still checked on its own. The first failure fails the sweep, as in a loop.
 */
export async function inBatches<T>(items: readonly T[], check: (item: T) => Promise<void>, size = 6): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(check));
}
