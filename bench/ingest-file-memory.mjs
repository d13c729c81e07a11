#!/usr/bin/env node
// What reading one large file costs in memory, apart from the rest of the service:
// `node bench/ingest-file-memory.mjs` builds the large PDFs of bench/ingest-files.mjs, then for each
// starts a fresh Node process that loads the built file extraction pool (packages/server/dist),
// extracts and chunks the file on one extraction thread (the service's limits) while sampling its
// own RSS (threads included) every 20 ms, and exits. Prints the child's RSS when loaded, its peak and
// what the file became (pages of text, chunks). Environment: BENCH_LARGE_FILES=text,images,
// BENCH_FRONTDESK_ROOT=<checkout> (the service to measure; default: this repository).
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = process.env.BENCH_FRONTDESK_ROOT ?? dirname(dirname(fileURLToPath(import.meta.url)));

const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

/** In the child: extract one file on the pool's thread while sampling this process's RSS (its threads included). */
async function child(path) {
  const { readFile } = await import("node:fs/promises");
  const { createFileExtractionPool } = await import(pathToFileURL(join(root, "packages/server/dist/ingest/extract/file-extraction-pool.js")).href);
  const bytes = new Uint8Array(await readFile(path));
  const pool = createFileExtractionPool({ size: 1 });
  const loadedMiB = rssMiB();
  let peakMiB = loadedMiB;
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, rssMiB())), 20);
  const started = performance.now();
  const prepared = await pool.prepare({ bytes, mediaType: "application/pdf", filename: "large.pdf", url: "https://bench.test/large.pdf", title: "large.pdf", csvMode: "curated" });
  const seconds = (performance.now() - started) / 1000;
  peakMiB = Math.max(peakMiB, rssMiB());
  clearInterval(sampler);
  await pool.close();
  const summary = prepared.kind === "document" ? { sections: prepared.document.sections.length, textMB: prepared.document.text.length / 1e6, chunks: prepared.chunks.length } : {};
  process.stdout.write(`${JSON.stringify({ seconds, loadedMiB, peakMiB, ...summary })}\n`);
}

async function measure(name, path, megabytes) {
  const output = await new Promise((resolve, reject) => {
    execFile(process.execPath, [fileURLToPath(import.meta.url), "--child", path], { maxBuffer: 1 << 20 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
  const result = JSON.parse(output.trim().split("\n").at(-1));
  process.stdout.write(
    `${name}: ${megabytes.toFixed(1)} MB, ${result.sections} pages of text (${result.textMB.toFixed(1)} MB), ${result.chunks} chunks in ${result.seconds.toFixed(1)} s; ` +
      `RSS ${result.loadedMiB.toFixed(0)} MiB loaded, peak ${result.peakMiB.toFixed(0)} MiB (+${(result.peakMiB - result.loadedMiB).toFixed(0)})\n`,
  );
}

async function main() {
  const { LARGE_FILES } = await import("./ingest-files.mjs");
  const names = (process.env.BENCH_LARGE_FILES ?? "text,images").split(",").filter(Boolean);
  const dir = await mkdtemp(join(tmpdir(), "frontdesk-file-memory-"));
  try {
    for (const name of names) {
      const bytes = await LARGE_FILES[name]("memory");
      const path = join(dir, `${name}.pdf`);
      await writeFile(path, bytes);
      await measure(name, path, bytes.length / 1e6);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") await child(process.argv[3]);
else await main();
