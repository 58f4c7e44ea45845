/**
 * `fn` over every item, at most `limit` at a time, the answers in the items' order: independent
 * requests of a sweep overlap the service's work with the database's instead of waiting in turn.
 * The first failure is thrown once every started call has ended.
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed) throw failed.reason;
  return results;
}
