/** Scales a vector to unit length in place and returns it; a zero vector is left as it is. */
export function l2NormaliseInPlace(vector: Float32Array): Float32Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  if (squares === 0) return vector;
  const scale = 1 / Math.sqrt(squares);
  for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] ?? 0) * scale;
  return vector;
}
