/**
 * Building blocks of the REST request-body JSON Schemas. Each `<resource>.routes.ts` declares its
 * own schemas with them. Schemas check shape and types and refuse unknown fields; format rules
 * that GraphQL clients must meet too (pin characters, e-mail, uniqueness) are the services' job.
 */
export type JsonSchema = Record<string, unknown>;

export const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });
export const nullableText = (maxLength: number): JsonSchema => ({ type: ['string', 'null'], maxLength });
export const id: JsonSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };
export const oneOf = (values: string[]): JsonSchema => ({ type: 'string', enum: values });

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * A bare-array bulk body (`[{device_id, permission_id}, ...]`). Counts (empty, more than the
 * maximum) and duplicates are left to the service, so both APIs refuse them with the same error.
 */
export function bulkItems(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'array', items: object(properties, Object.keys(properties)) };
}
