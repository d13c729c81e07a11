/**
 * A Postgres array literal of `values` (each quoted), for a `$n::text[]` parameter: both stores'
 * drivers take it as text, where a JavaScript array is not passed alike by PGlite and node-postgres.
 */
export function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}
