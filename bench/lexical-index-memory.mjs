#!/usr/bin/env node
// Memory of the in-memory lexical index: `node --expose-gc bench/lexical-index-memory.mjs`
// (see docs/benchmarks.md, section "Answers"). Builds a LexicalIndex over synthetic chunks of 120
// distinct words drawn from a Zipf-like vocabulary and prints the heap and array-buffer growth after
// a forced GC next to the estimate the service's memory budget uses.
// Environment: BENCH_CHUNKS=10000 BENCH_VOCABULARY=20000
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const module = join(root, "packages/server/dist/answering/retrieve/lexical-index.js");
if (!existsSync(module)) throw new Error("Build first: npm run build");
if (typeof global.gc !== "function") throw new Error("Run with node --expose-gc");
const { LexicalIndex } = await import(pathToFileURL(module).href);

const vocabulary = Number(process.env.BENCH_VOCABULARY ?? 20000);
const chunks = Number(process.env.BENCH_CHUNKS ?? 10000);
const perChunk = 120;
let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const words = Array.from({ length: vocabulary }, (_, i) => `w${i.toString(36)}`);
const input = Array.from({ length: chunks }, (_, c) => {
  const set = new Set();
  while (set.size < perChunk) set.add(words[Math.floor(Math.pow(random(), 2.5) * vocabulary)]);
  const lexemes = [...set];
  return { chunkId: c + 1, length: lexemes.length, lexemes, frequencies: lexemes.map(() => 1 + Math.floor(random() * 3)) };
});
global.gc();
const before = process.memoryUsage();
const index = new LexicalIndex(input);
global.gc();
const after = process.memoryUsage();
const used = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
const lexemes = new Set(input.flatMap((chunk) => chunk.lexemes)).size;
const mib = (bytes) => (bytes / 1048576).toFixed(1);
console.log(`chunks ${chunks}, postings ${chunks * perChunk}, distinct words ${lexemes}: measured ${mib(used)} MiB, estimated ${mib(index.byteSize)} MiB`);
