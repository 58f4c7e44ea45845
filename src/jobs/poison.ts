// Batch writes of background jobs must not let one bad row block all the others forever. A row the
// database refuses for its content (SQLSTATE class 22 "data exception", e.g. a NUL byte in text,
// 23 "integrity constraint violation", 54 "program limit exceeded"; 08P01 "protocol violation", which
// is what a NUL byte inside a statement's text gets) is a poison value: it would fail the same way
// on every retry. Any other failure (connection lost, server shutting down, deadlock)
// is transient: the whole batch is kept for the next run.

/** True when the database refused the statement because of the values it carried. */
export function isPoisonError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^(22|23|54)[0-9A-Z]{3}$/.test(code) || code === '08P01');
}

/**
 * Writes `items` with one `write` call; when the database refuses that batch for its content,
 * writes them one by one and drops (reporting each to `dropped`) those refused on their own. A
 * transient failure rejects, leaving the caller to keep the batch. Resolves with what `write` returned.
 */
export async function writeWithoutPoison<T, R>(items: T[], write: (batch: T[]) => Promise<R[]>, dropped: (item: T, error: unknown) => void): Promise<R[]> {
  if (items.length === 0) return [];
  try {
    return await write(items);
  } catch (error) {
    if (!isPoisonError(error)) throw error;
    if (items.length === 1) {
      dropped(items[0]!, error);
      return [];
    }
  }
  const results: R[] = [];
  for (const item of items) {
    try {
      results.push(...(await write([item])));
    } catch (error) {
      if (!isPoisonError(error)) throw error;
      dropped(item, error);
    }
  }
  return results;
}
