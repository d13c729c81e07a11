/** A vector as pgvector's text input (`[0.1,0.2,…]`), cast with `::vector` in SQL. Non-finite values become 0. */
export function vectorLiteral(vector: Float32Array | readonly number[]): string {
  return `[${Array.from(vector, (value) => (Number.isFinite(value) ? value : 0)).join(",")}]`;
}
