import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EmbeddingBatchReport } from "../../src/embeddings/embedder.js";
import { EmbeddingError } from "../../src/embeddings/embedding-error.js";
import { LocalEmbedder } from "../../src/embeddings/local-embedder.js";
import { localWorkerUrl } from "./compiled-workers.js";
import { startLoopbackModelHub } from "./loopback-model-hub.js";
import { TINY_HIDDEN_SIZE, writeTinyBertModel } from "./tiny-bert-model.js";
import { cosine, norm } from "./vector-math.js";

const MODEL_ID = "frontdesk-tests/tiny-bert";

let root: string;
let modelDir: string;
let cacheDir: string;
let embedder: LocalEmbedder;
const reports: EmbeddingBatchReport[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "frontdesk-local-embedder-"));
  modelDir = path.join(root, "models");
  cacheDir = path.join(root, "cache");
  await writeTinyBertModel(modelDir, MODEL_ID);
  embedder = await LocalEmbedder.open({
    modelId: MODEL_ID,
    modelDir,
    cacheDir,
    allowRemoteModels: false,
    batchSize: 4,
    workerUrl: localWorkerUrl,
    onBatch: (report) => reports.push(report),
  });
});

afterAll(async () => {
  await embedder?.close();
  await rm(root, { recursive: true, force: true });
});

describe("local embedder (happy)", () => {
  test("reports the model it loaded and its dimension", () => {
    expect(embedder.id).toBe(`local:${MODEL_ID}`);
    expect(embedder.dimensions).toBe(TINY_HIDDEN_SIZE);
    expect(embedder.status()).toEqual({ provider: "local", id: `local:${MODEL_ID}`, degraded: false });
  });

  test("returns one L2-normalised vector of the model's dimension per text", async () => {
    const vectors = await embedder.embed(["how do i get a refund", "when will my parcel arrive"]);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(TINY_HIDDEN_SIZE);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  test("is deterministic", async () => {
    const [first] = await embedder.embed(["are you open on monday"]);
    const [second] = await embedder.embed(["are you open on monday"]);
    expect(Array.from(second ?? [])).toEqual(Array.from(first ?? []));
  });

  test("puts texts about the same topic closer than texts about different topics", async () => {
    const [refund, moneyBack, parcel] = await embedder.embed([
      "how do i get a refund",
      "my money back was reimbursed",
      "when will my parcel arrive",
    ]);
    if (!refund || !moneyBack || !parcel) throw new Error("missing vectors");
    expect(cosine(refund, moneyBack)).toBeGreaterThan(cosine(refund, parcel) + 0.3);
  });

  test("embeds many texts of different lengths in worker-thread batches, in order", async () => {
    const texts = ["refund", "when will my parcel arrive", "open monday", "how do i get my money back", "shipping"];
    const many = Array.from({ length: 10 }, (_, index) => texts[index % texts.length] ?? "");
    reports.length = 0;
    const vectors = await embedder.embed(many);
    expect(vectors).toHaveLength(10);
    expect(reports.map((report) => report.size)).toEqual([4, 4, 2]);
    for (const report of reports) {
      expect(report.threadId).not.toBe(threadId);
      expect(report.embedderId).toBe(embedder.id);
    }
    for (const [index, vector] of vectors.entries()) {
      const [alone] = await embedder.embed([many[index] ?? ""]);
      Array.from(vector).forEach((value, position) => expect(value).toBeCloseTo(alone?.[position] ?? Number.NaN, 5));
    }
  });

  test("embeds an empty string and an empty list", async () => {
    const [empty] = await embedder.embed([""]);
    expect(empty).toHaveLength(TINY_HIDDEN_SIZE);
    expect(await embedder.embed([])).toEqual([]);
  });
});

describe("local embedder (model files)", () => {
  test("loads quantized weights when that is what is on disk, and says so in its id", async () => {
    const quantizedRoot = path.join(root, "quantized");
    await writeTinyBertModel(quantizedRoot, MODEL_ID, "model_quantized.onnx");
    const quantized = await LocalEmbedder.open({
      modelId: MODEL_ID,
      cacheDir: quantizedRoot,
      allowRemoteModels: false,
      workerUrl: localWorkerUrl,
    });
    try {
      expect(quantized.id).toBe(`local:${MODEL_ID}:q8`);
      const [vector] = await quantized.embed(["refund"]);
      expect(norm(vector ?? new Float32Array())).toBeCloseTo(1, 5);
    } finally {
      await quantized.close();
    }
  });
});

describe("local embedder (download)", () => {
  test("downloads a missing model from the hub, caches it, and later loads it offline", async () => {
    const hubRoot = path.join(root, "hub");
    await writeTinyBertModel(hubRoot, MODEL_ID);
    const downloadCache = path.join(root, "download-cache");
    const hub = await startLoopbackModelHub(hubRoot);
    try {
      const downloaded = await LocalEmbedder.open({
        modelId: MODEL_ID,
        cacheDir: downloadCache,
        allowRemoteModels: true,
        remoteHost: hub.url,
        workerUrl: localWorkerUrl,
      });
      const [online] = await downloaded.embed(["refund"]);
      await downloaded.close();
      expect(hub.requests).toEqual(
        expect.arrayContaining([
          `GET /${MODEL_ID}/resolve/main/config.json`,
          `GET /${MODEL_ID}/resolve/main/tokenizer.json`,
          `GET /${MODEL_ID}/resolve/main/onnx/model.onnx`,
        ]),
      );

      await hub.close();
      const offline = await LocalEmbedder.open({ modelId: MODEL_ID, cacheDir: downloadCache, allowRemoteModels: false, workerUrl: localWorkerUrl });
      const [cached] = await offline.embed(["refund"]);
      await offline.close();
      expect(offline.id).toBe(`local:${MODEL_ID}`);
      expect(Array.from(cached ?? [])).toEqual(Array.from(online ?? []));
    } finally {
      await hub.close().catch(() => undefined);
    }
  });
});

describe("local embedder (idle)", () => {
  test("lets its model thread exit when idle and loads the model again on the next call, with the same vectors", async () => {
    const threads: number[] = [];
    const idle = await LocalEmbedder.open({
      modelId: MODEL_ID,
      modelDir,
      cacheDir,
      allowRemoteModels: false,
      workerUrl: localWorkerUrl,
      idleTimeoutMs: 100,
      onBatch: (report) => threads.push(report.threadId),
    });
    try {
      const [before] = await idle.embed(["refund"]);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const [after] = await idle.embed(["refund"]);
      expect(threads).toHaveLength(2);
      expect(threads[1]).not.toBe(threads[0]);
      Array.from(after ?? []).forEach((value, position) => expect(value).toBeCloseTo(before?.[position] ?? Number.NaN, 6));
    } finally {
      await idle.close();
    }
  });
});

describe("local embedder (error)", () => {
  test("fails with model_unavailable when the model is missing and downloads are off", async () => {
    const opening = LocalEmbedder.open({
      modelId: "frontdesk-tests/absent",
      modelDir,
      cacheDir,
      allowRemoteModels: false,
      workerUrl: localWorkerUrl,
    });
    await expect(opening).rejects.toBeInstanceOf(EmbeddingError);
    await expect(opening).rejects.toMatchObject({ failure: "model_unavailable" });
  });

  test("fails with model_unavailable when the files are there but cannot be loaded", async () => {
    const brokenRoot = path.join(root, "broken");
    const directory = await writeTinyBertModel(brokenRoot, MODEL_ID);
    await rm(path.join(directory, "tokenizer.json"));
    const opening = LocalEmbedder.open({ modelId: MODEL_ID, cacheDir: brokenRoot, allowRemoteModels: false, workerUrl: localWorkerUrl });
    await expect(opening).rejects.toMatchObject({ failure: "model_unavailable" });
  });

  test("refuses to embed after close", async () => {
    const closing = await LocalEmbedder.open({ modelId: MODEL_ID, modelDir, cacheDir, allowRemoteModels: false, workerUrl: localWorkerUrl });
    await closing.close();
    await expect(closing.embed(["refund"])).rejects.toMatchObject({ failure: "closed" });
  });
});
