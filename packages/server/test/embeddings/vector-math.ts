/** Cosine similarity of two vectors of the same length. */
export function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  for (let index = 0; index < left.length; index++) {
    const a = left[index] ?? 0;
    const b = right[index] ?? 0;
    dot += a * b;
    leftSquares += a * a;
    rightSquares += b * b;
  }
  return dot / Math.sqrt(leftSquares * rightSquares);
}

export function norm(vector: Float32Array): number {
  let squares = 0;
  for (const value of vector) squares += value * value;
  return Math.sqrt(squares);
}
