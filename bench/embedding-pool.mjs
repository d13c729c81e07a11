#!/usr/bin/env node
// Embedding pool benchmark: `npm run build && node bench/embedding-pool.mjs`.
//
// Embeds BENCH_DOCUMENTS documents of BENCH_CHUNKS chunk-sized texts (about 700 characters, the
// size the chunker cuts) with the hashing embedder of the compiled service, BENCH_CALLERS calls in
// flight at once (as the indexing jobs do), for each worker count asked for. Every call is large
// enough to go through the worker pool. Prints the first call's time (a cold pool starts its
// threads) and the steady throughput in texts per second, the best of BENCH_REPEAT runs.
//
// Environment (all optional):
//   BENCH_DOCUMENTS=400   BENCH_CHUNKS=8   BENCH_CALLERS=4   BENCH_WORKERS=1,2   BENCH_REPEAT=3
//   BENCH_FRONTDESK_ROOT=<checkout>  the build to measure (default: this repository)
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repositoryRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const root = process.env.BENCH_FRONTDESK_ROOT ?? repositoryRoot;
const documents = Number(process.env.BENCH_DOCUMENTS ?? 400);
const chunks = Number(process.env.BENCH_CHUNKS ?? 8);
const callers = Number(process.env.BENCH_CALLERS ?? 4);
const workerCounts = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);
const repeats = Number(process.env.BENCH_REPEAT ?? 3);

const modulePath = join(root, "packages/server/dist/embeddings/hashing-embedder.js");
const { HashingEmbedder } = await import(pathToFileURL(modulePath).href);

const WORDS = "returns refunds shipping parcel delivery opening hours warranty repair invoice account password order".split(" ");
function chunkText(document, chunk) {
  const words = [];
  for (let index = 0; words.join(" ").length < 700; index++) {
    words.push(`${WORDS[(document * 7 + chunk * 3 + index) % WORDS.length]}${(document + index) % 13}`);
  }
  return words.join(" ");
}
const calls = Array.from({ length: documents }, (_, document) => Array.from({ length: chunks }, (_, chunk) => chunkText(document, chunk)));

async function run(workerCount) {
  const embedder = new HashingEmbedder({ workerCount, inlineCharacterLimit: 0 });
  try {
    const coldStart = performance.now();
    await embedder.embed(calls[0]);
    const coldMs = performance.now() - coldStart;
    let next = 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next < calls.length) await embedder.embed(calls[next++]);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    // CPU time of every thread of the process: unlike the rate, barely moved by other load on the machine.
    const cpuMicrosecondsPerText = (cpu.user + cpu.system) / (documents * chunks);
    return { coldMs, textsPerSecond: (documents * chunks) / seconds, cpuMicrosecondsPerText };
  } finally {
    await embedder.close();
  }
}

console.log(`hashing embedder, ${documents} calls of ${chunks} texts, ${callers} in flight, build: ${root}`);
for (const workerCount of workerCounts) {
  const results = [];
  for (let repeat = 0; repeat < repeats; repeat++) results.push(await run(workerCount));
  const best = results.reduce((a, b) => (b.textsPerSecond > a.textsPerSecond ? b : a));
  const cold = Math.min(...results.map((result) => result.coldMs));
  const cpu = Math.min(...results.map((result) => result.cpuMicrosecondsPerText));
  console.log(
    `workers=${workerCount}  first call ${cold.toFixed(1)} ms  steady ${Math.round(best.textsPerSecond)} texts/s (best of ${repeats})  ` +
      `CPU ${cpu.toFixed(0)} µs/text (all threads, least of ${repeats})`,
  );
}
