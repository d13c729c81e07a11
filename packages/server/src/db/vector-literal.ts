/** A vector as pgvector's text input (`[0.1,0.2,…]`), cast with `::vector` in SQL. Non-finite values become 0. */
export function vectorLiteral(vector: Float32Array | readonly number[]): string {
  return `[${Array.from(vector, (value) => (Number.isFinite(value) ? value : 0)).join(",")}]`;
}

/** 2^24: a unit vector's components kept to 2^-25, float32's own precision near 1. */
const UNIT_SCALE = 2 ** 24;

/**
 * A vector to store, as a Postgres integer array: its direction, each component of the unit vector
 * times 2^24 rounded (non-finite values become 0, a zero vector stays zero). `storedVector` turns the
 * parameter back into a unit `vector` in SQL. Why: PGlite parses a decimal float in about 3 µs (its
 * WebAssembly `strtof` computes in 128-bit software floats), so the 384 of an embedding took most of
 * a chunk insert; integers parse in a fraction of that (a page's four chunks: 5.5 → 3.1 ms, see
 * docs/benchmarks.md, Ingest). Only the direction is kept: retrieval compares vectors by cosine alone.
 */
export function unitVectorIntegers(vector: Float32Array | readonly number[]): string {
  let squares = 0;
  for (const value of vector) if (Number.isFinite(value)) squares += value * value;
  const scale = squares > 0 ? UNIT_SCALE / Math.sqrt(squares) : 0;
  return `{${Array.from(vector, (value) => (Number.isFinite(value) ? Math.round(value * scale) : 0)).join(",")}}`;
}

/** SQL for the `vector` stored from `unitVectorIntegers`' text in `parameter` (a placeholder or column). */
export function storedVector(parameter: string): string {
  return `l2_normalize((${parameter})::int[]::vector)`;
}
