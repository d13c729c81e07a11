import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Postgres settings for the embedded store, passed to PGlite at start (`-c name=value`).
 *
 * PGlite's Postgres runs with the stock `shared_buffers` (160 MB here), and Postgres zeroes its
 * buffer pool when it starts, so all of it is resident in PGlite's WebAssembly memory — which never
 * shrinks — before the first query: a third of the idle service. 16 MB holds the working set of a
 * few thousand chunks (vectors, HNSW graph, text); beyond that, pages come from the data files
 * through the operating system's cache. Measured in docs/benchmarks.md ("Memory").
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

/**
 * `shared_buffers` for PGlite (FRONTDESK_PGLITE_SHARED_BUFFERS_MB). A larger pool serves a large
 * knowledge base faster (with 10,000 chunks, 160 MB answered 18 % more questions a second than
 * 16 MB at 32 visitors) for that much more resident memory from the first start.
 */
export function pgliteMemorySettings(sharedBuffersMb: number = DEFAULT_PGLITE_SHARED_BUFFERS_MB): string[] {
  return ["-c", `shared_buffers=${sharedBuffersMb}MB`];
}

/**
 * Compiles PGlite's WebAssembly (Postgres, about 20,000 functions) with V8's baseline compiler only.
 * By default V8 recompiles hot functions with its optimising compiler in background threads: on the
 * embedded store that cost about 50 MB of resident memory (compiler memory glibc keeps, and code) and
 * a core for the first seconds of every start, for queries that measured no faster over a warm
 * store (docs/benchmarks.md, "Memory"). The flag is process-wide and only concerns WebAssembly; it
 * must be set before PGlite compiles its module.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Runs one full garbage collection of this thread's heap. On a new data directory PGlite runs
 * initdb in WebAssembly instances of their own, whose memories (about 290 MB) nothing references
 * once it is done, but an idle thread allocates nothing, so V8 would keep them until some later
 * collection. `gc` is exposed only to a throw-away context, for this one call.
 */
export function collectGarbageNow(): void {
  let gc: unknown;
  setFlagsFromString("--expose-gc");
  try {
    gc = runInNewContext("gc");
  } catch {
    // The flag does not always take in a running isolate ("gc is not defined"): the collection is
    // an optimisation, so the store opens without it rather than its thread dying.
    gc = undefined;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  if (typeof gc === "function") gc();
}
