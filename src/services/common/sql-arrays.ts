// A whole column of values as ONE query parameter: a PostgreSQL array literal (`{1,2,NULL}`,
// `{"a","b"}`), cast in the SQL (`?::int[]`) and read with `unnest`. MikroORM's `execute` inlines
// each parameter as an escaped literal, so a batch of 1,000 rows x 11 values as separate
// parameters cost 11,000 escaped strings per statement; as arrays it costs one string per column.

/** An int[] literal; every element must be an integer or null. */
export function intArray(values: ReadonlyArray<number | null | undefined>): string {
  return `{${values.map((v) => (v === null || v === undefined ? 'NULL' : String(Math.trunc(v)))).join(',')}}`;
}

/** A text/varchar/timestamptz[] literal: elements double-quoted with `"` and `\` escaped, null as NULL. */
export function textArray(values: ReadonlyArray<string | null | undefined>): string {
  return `{${values.map((v) => (v === null || v === undefined ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}

/** A boolean[] literal. */
export function boolArray(values: ReadonlyArray<boolean>): string {
  return `{${values.map((v) => (v ? 't' : 'f')).join(',')}}`;
}
