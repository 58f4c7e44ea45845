import { boundedCache } from './cache';

/** Field-name conversion between the REST surface (snake_case) and GraphQL (camelCase). */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Names already converted: REST answers rename the same few schema field names on every request. */
const snakeNames = boundedCache<string, string>(2000);

export function camelToSnake(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeNames.set(name, snake);
  }
  return snake;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Renames the keys of objects (deeply, through arrays); values are kept as they are. */
export function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) out[rename(key)] = renameKeys(value[key], rename);
  }
  return out;
}

/** Renames the top-level keys of an object (event payloads are flat at the top); other values pass. */
export function renameTopKeys(value: unknown, rename: (key: string) => string): unknown {
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), v]));
}
