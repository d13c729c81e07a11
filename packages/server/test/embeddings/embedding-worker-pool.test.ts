import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EmbeddingWorkerPool } from "../../src/embeddings/embedding-worker-pool.js";
import { hashingWorkerUrl } from "./compiled-workers.js";

/**
 * A worker on the real protocol (the compiled serveEmbeddingWorker) whose embedder can be
 * told to fail loading, to throw for one text, or to kill its thread.
 */
const FAULTY_WORKER = `
import { workerData } from "node:worker_threads";
import { serveEmbeddingWorker } from ${JSON.stringify(new URL("serve-embedding-worker.js", hashingWorkerUrl).href)};
serveEmbeddingWorker(async () => {
  if (workerData.failLoad) throw new Error("weights are corrupt");
  return {
    dimensions: 2,
    embed: async (texts) => texts.map((text) => {
      if (text === "crash") process.exit(3);
      if (text === "throw") throw new Error("cannot embed this");
      return new Float32Array([text.length, 1]);
    }),
    dispose: async () => undefined,
  };
});
`;

let root: string;
let faultyWorkerUrl: URL;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "frontdesk-worker-pool-"));
  const file = path.join(root, "faulty-worker.mjs");
  await writeFile(file, FAULTY_WORKER);
  faultyWorkerUrl = pathToFileURL(file);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function pool(workerData: { failLoad: boolean }, size = 1): EmbeddingWorkerPool {
  return new EmbeddingWorkerPool({ workerUrl: faultyWorkerUrl, workerData, size, description: "test embedder" });
}

describe("embedding worker pool (happy)", () => {
  test("spreads batches over its workers and answers each with its own vectors", async () => {
    const workers = pool({ failLoad: false }, 2);
    expect(await workers.start()).toEqual({ dimensions: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, index) => workers.run(["x".repeat(index + 1)])));
    results.forEach((result, index) => expect(Array.from(result.vectors[0] ?? [])).toEqual([index + 1, 1]));
    expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
    await workers.close();
  });
});

describe("embedding worker pool (error)", () => {
  test("a worker that cannot load fails start and run with model_unavailable and the reason", async () => {
    const workers = pool({ failLoad: true });
    await expect(workers.start()).rejects.toMatchObject({ failure: "model_unavailable" });
    await expect(workers.run(["a"])).rejects.toThrow(/test embedder could not be loaded: weights are corrupt/);
    await workers.close();
  });

  test("a batch that throws fails alone; the worker keeps serving", async () => {
    const workers = pool({ failLoad: false });
    await expect(workers.run(["throw"])).rejects.toMatchObject({ failure: "worker_failed" });
    expect(Array.from((await workers.run(["abc"])).vectors[0] ?? [])).toEqual([3, 1]);
    await workers.close();
  });

  test("a crashed worker fails its batch and is replaced for the next one", async () => {
    const workers = pool({ failLoad: false });
    const first = await workers.run(["a"]);
    await expect(workers.run(["crash"])).rejects.toThrow(/exited with code 3/);
    const after = await workers.run(["ab"]);
    expect(Array.from(after.vectors[0] ?? [])).toEqual([2, 1]);
    expect(after.threadId).not.toBe(first.threadId);
    await workers.close();
  });

  test("refuses work after close", async () => {
    const workers = pool({ failLoad: false });
    await workers.start();
    await workers.close();
    await expect(workers.run(["a"])).rejects.toMatchObject({ failure: "closed" });
  });
});
