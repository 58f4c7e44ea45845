// An API refusal in full: the message and, for a refused input, what is wrong with each field
// (`extensions.details`), so an operator reads why (an unsupported door combination, a pin taken).
import type { CombinedError } from '@urql/core';
import { errorMessage } from './client';

export function problemText(error: CombinedError | undefined): string | null {
  const message = errorMessage(error);
  if (!message) return null;
  const details = (error?.graphQLErrors[0]?.extensions?.details ?? []) as Array<{ field: string; message: string }>;
  const extra = details.map((d) => d.message).filter((m) => m && m !== message);
  return extra.length > 0 ? `${message} ${extra.join(' ')}` : message;
}
