// How large a stored SCIM resource may be (docs/identity.md, "Bounds"). A directory's user is a
// few hundred bytes to a few kilobytes; the bounds stop a key from storing megabytes per person,
// which every list and every PATCH would then read. Pure.
import { ScimError } from './errors';
import { isObject, type Json } from './resource';

export interface ResourceBounds {
  /** The stored document's JSON, in UTF-8 bytes. */
  maxBytes: number;
  /** Values in the stored document: every attribute, sub-attribute and multi-valued entry, at any depth. */
  maxAttributes: number;
}

/** Deeper than this a resource is not a SCIM resource (a complex attribute's entries are 3 levels down). */
export const MAX_DEPTH = 8;

/**
 * Refuses a document over the bounds: 413 for its size, 400 `invalidValue` for its number of
 * values or its depth. Counted without recursion, so a deeply nested body cannot exhaust the stack.
 */
export function checkResourceBounds(kind: 'User' | 'Group', document: Json, bounds: ResourceBounds): void {
  let values = 0;
  const stack: { value: Json; depth: number }[] = [{ value: document, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (depth > MAX_DEPTH) throw ScimError.badRequest('invalidValue', `A ${kind} nests at most ${MAX_DEPTH} levels deep.`);
    const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    values += children.length;
    if (values > bounds.maxAttributes) {
      throw ScimError.badRequest(
        'invalidValue',
        `A ${kind} holds at most ${bounds.maxAttributes} attributes and values (every multi-valued entry and sub-attribute counted).`,
      );
    }
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  const bytes = Buffer.byteLength(JSON.stringify(document), 'utf8');
  if (bytes > bounds.maxBytes) throw new ScimError(413, null, `A ${kind} is stored in at most ${bounds.maxBytes} bytes of JSON; this one takes ${bytes}.`);
}
