/** Consecutive slices of at most `size` items, in order. */
export function splitIntoBatches<Item>(items: readonly Item[], size: number): Item[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive integer, got ${size}`);
  const batches: Item[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
