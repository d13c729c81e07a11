import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { EmbeddingWorkerPool, type EmbeddingWorkerPoolOptions } from "../../src/embeddings/embedding-worker-pool.js";
import { hashingWorkerUrl } from "./compiled-workers.js";

/**
 * A worker module on the real handler (the compiled serveEmbeddingWorker) whose embedder can be
 * told to fail loading, to throw for one text, to kill its thread, or to take its time. Each
 * vector is [text length, how many times this thread loaded the embedder].
 */
const FAULTY_WORKER = `
import { workerData } from "node:worker_threads";
import { setTimeout as sleep } from "node:timers/promises";
import { serveEmbeddingWorker } from ${JSON.stringify(new URL("serve-embedding-worker.js", hashingWorkerUrl).href)};
let loads = 0;
export default serveEmbeddingWorker(async () => {
  if (workerData.failLoad) throw new Error("weights are corrupt");
  loads += 1;
  return {
    dimensions: 2,
    embed: async (texts) => {
      const vectors = [];
      for (const text of texts) {
        if (text === "crash") process.exit(3);
        if (text === "throw") throw new Error("cannot embed this");
        if (text.startsWith("sleep:")) await sleep(Number(text.slice(6)));
        vectors.push(new Float32Array([text.length, loads]));
      }
      return vectors;
    },
  };
});
`;

let root: string;
let faultyWorkerUrl: URL;
const opened: EmbeddingWorkerPool[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "frontdesk-worker-pool-"));
  const file = path.join(root, "faulty-worker.mjs");
  await writeFile(file, FAULTY_WORKER);
  faultyWorkerUrl = pathToFileURL(file);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((pool) => pool.close()));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function pool(options: Partial<EmbeddingWorkerPoolOptions> & { failLoad?: boolean } = {}): EmbeddingWorkerPool {
  const { failLoad = false, ...rest } = options;
  const created = new EmbeddingWorkerPool({ workerUrl: faultyWorkerUrl, workerData: { failLoad }, size: 1, description: "test embedder", ...rest });
  opened.push(created);
  return created;
}

function values(result: { vectors: Float32Array[] }): number[] {
  return Array.from(result.vectors[0] ?? []);
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

describe("embedding worker pool (happy)", () => {
  test("starts no thread until work arrives, then spreads batches over its threads", async () => {
    const workers = pool({ size: 2 });
    expect(workers.threadCount).toBe(0);
    expect(await workers.start()).toEqual({ dimensions: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, index) => workers.run([`sleep:20${"x".repeat(index)}`])));
    results.forEach((result, index) => expect(values(result)[0]).toBe(8 + index));
    expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
  });

  test("a thread loads its embedder once and keeps it for every batch", async () => {
    const workers = pool();
    const runs = [];
    for (let index = 0; index < 4; index++) runs.push(await workers.run(["abc"]));
    expect(new Set(runs.map((run) => run.threadId)).size).toBe(1);
    for (const run of runs) expect(values(run)).toEqual([3, 1]);
  });

  test("an idle thread exits after the idle timeout; the next batch starts a fresh one", async () => {
    const workers = pool({ idleTimeoutMs: 100 });
    const first = await workers.run(["a"]);
    expect(workers.threadCount).toBe(1);
    await waitFor(() => workers.threadCount === 0);
    const second = await workers.run(["ab"]);
    expect(second.threadId).not.toBe(first.threadId);
    expect(values(second)).toEqual([2, 1]);
  });
});

describe("embedding worker pool (error)", () => {
  test("an embedder that cannot load fails start and run with model_unavailable and the reason", async () => {
    const workers = pool({ failLoad: true });
    await expect(workers.start()).rejects.toMatchObject({ failure: "model_unavailable" });
    await expect(workers.run(["a"])).rejects.toThrow(/test embedder could not be loaded: weights are corrupt/);
  });

  test("a worker script that cannot start fails the batches waiting for it instead of leaving them queued", async () => {
    const workers = pool({ workerUrl: pathToFileURL(path.join(root, "missing-worker.mjs")) });
    await expect(workers.start()).rejects.toMatchObject({ failure: "model_unavailable", message: /could not start/ });
    await expect(workers.run(["a"])).rejects.toMatchObject({ failure: "model_unavailable" });
  });

  test("a batch that throws fails alone; the thread keeps serving", async () => {
    const workers = pool();
    const before = await workers.run(["a"]);
    await expect(workers.run(["throw"])).rejects.toMatchObject({ failure: "worker_failed", message: /test embedder failed: cannot embed this/ });
    const after = await workers.run(["abc"]);
    expect(values(after)).toEqual([3, 1]);
    expect(after.threadId).toBe(before.threadId);
  });

  test("a crashed thread fails its batch with the exit code and is replaced for the next one", async () => {
    const workers = pool();
    const first = await workers.run(["a"]);
    await expect(workers.run(["crash"])).rejects.toMatchObject({ failure: "worker_failed", message: /test embedder thread exited with code 3/ });
    const after = await workers.run(["ab"]);
    expect(values(after)).toEqual([2, 1]);
    expect(after.threadId).not.toBe(first.threadId);
  });

  test("aborting a running batch ends it at once, its thread with it; the pool keeps working", async () => {
    const workers = pool();
    const first = await workers.run(["a"]);
    const controller = new AbortController();
    const running = workers.run(["sleep:10000"], { signal: controller.signal });
    await sleep(50);
    const started = performance.now();
    controller.abort();
    await expect(running).rejects.toMatchObject({ failure: "aborted" });
    expect(performance.now() - started).toBeLessThan(2_000);
    const after = await workers.run(["abc"]);
    expect(values(after)).toEqual([3, 1]);
    expect(after.threadId).not.toBe(first.threadId);
  });

  test("aborting a queued batch removes it; the batch ahead of it is untouched", async () => {
    const workers = pool();
    const ahead = workers.run(["sleep:300"]);
    const controller = new AbortController();
    const queued = workers.run(["never"], { signal: controller.signal });
    controller.abort();
    await expect(queued).rejects.toMatchObject({ failure: "aborted" });
    expect(values(await ahead)).toEqual([9, 1]);
  });

  test("refuses batches beyond its queue limit with overloaded, and takes them again once the queue drains", async () => {
    const workers = pool({ maxQueue: 1 });
    const running = workers.run(["sleep:300"]);
    const waiting = workers.run(["sleep:1"]);
    await expect(workers.run(["one too many"])).rejects.toMatchObject({ failure: "overloaded", message: /1 tasks are already waiting/ });
    await Promise.all([running, waiting]);
    expect(values(await workers.run(["abc"]))).toEqual([3, 1]);
  });

  test("close fails the waiting batches, lets the running one finish, and refuses work afterwards", async () => {
    const workers = pool();
    await workers.run(["warm"]);
    const running = workers.run(["sleep:100"]);
    const waiting = workers.run(["abc"]);
    const closing = workers.close();
    await expect(waiting).rejects.toMatchObject({ failure: "closed" });
    expect(values(await running)).toEqual([9, 1]);
    await closing;
    expect(workers.threadCount).toBe(0);
    await expect(workers.run(["a"])).rejects.toMatchObject({ failure: "closed" });
    await expect(workers.start()).rejects.toMatchObject({ failure: "closed" });
  });
});
