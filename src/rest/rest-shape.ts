// The REST surface's one conversion (docs/architecture.md, "One shape"): services return camelCase
// views, GraphQL passes them through, and a REST route's answer is its GraphQL answer with every key
// renamed to snake_case (a JSON body's keys the other way). Nothing else on the REST path renames.
import { camelToSnake, renameKeys, snakeToCamel } from '../kernel/case';

/** A GraphQL answer (or a view) as the REST body shows it: keys in snake_case, deeply; values as they are. */
export const restShapeOf = (value: unknown): unknown => renameKeys(value, camelToSnake);

/** A REST request body as the GraphQL input: keys in camelCase, deeply. */
export const restInputOf = (body: unknown): unknown => renameKeys(body, snakeToCamel);
