/**
 * Iterates `source` until it ends or `signal` aborts, whichever comes first: an abort ends the
 * iteration at once, even while the source is still waiting for its next item (which is then
 * abandoned, its eventual failure ignored). The source is closed either way.
 */
export async function* readUntilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) return;
  const iterator = source[Symbol.asyncIterator]();
  let onAbort = (): void => {};
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    for (;;) {
      const next = iterator.next();
      next.catch(() => {});
      const result = await Promise.race([next, aborted]);
      if (result === "aborted" || result.done === true) return;
      yield result.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    iterator.return?.().catch(() => {});
  }
}
