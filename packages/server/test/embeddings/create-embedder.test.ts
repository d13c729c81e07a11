import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createEmbedder, type EmbedderConfig, type EmbeddingLogger } from "../../src/embeddings/create-embedder.js";
import type { Embedder } from "../../src/embeddings/embedder.js";
import { EmbeddingError } from "../../src/embeddings/embedding-error.js";
import { hashingWorkerUrl, localWorkerUrl } from "./compiled-workers.js";
import { TINY_HIDDEN_SIZE, writeTinyBertModel } from "./tiny-bert-model.js";
import { norm } from "./vector-math.js";

interface LogEntry {
  level: "info" | "warn";
  details: object;
  message: string;
}

function recordingLogger(): EmbeddingLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    info: (details, message) => entries.push({ level: "info", details, message }),
    warn: (details, message) => entries.push({ level: "warn", details, message }),
  };
}

const workers = { localWorkerUrl, hashingWorkerUrl };
let root: string;
const opened: Embedder[] = [];

async function create(config: Partial<EmbedderConfig>, logger: EmbeddingLogger = recordingLogger()): Promise<Embedder> {
  const embedder = await createEmbedder(
    { provider: "local", cacheDir: path.join(root, "cache"), allowRemoteModels: false, ...config },
    logger,
    workers,
  );
  opened.push(embedder);
  return embedder;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "frontdesk-create-embedder-"));
  await writeTinyBertModel(path.join(root, "models"), "frontdesk-tests/tiny-bert");
});

afterAll(async () => {
  await Promise.all(opened.map((embedder) => embedder.close()));
  await rm(root, { recursive: true, force: true });
});

describe("createEmbedder (happy)", () => {
  test("local keeps its model thread for idleTimeoutMs (FRONTDESK_EMBEDDINGS_IDLE_SECONDS) after the last batch", async () => {
    const threadsOf = async (idleTimeoutMs: number) => {
      const threads: number[] = [];
      const embedder = await createEmbedder(
        { provider: "local", cacheDir: path.join(root, "cache"), allowRemoteModels: false, model: "frontdesk-tests/tiny-bert", modelDir: path.join(root, "models"), idleTimeoutMs },
        recordingLogger(),
        { ...workers, onBatch: (report) => threads.push(report.threadId) },
      );
      opened.push(embedder);
      await embedder.embed(["refund"]);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await embedder.embed(["refund"]);
      return threads.slice(-2);
    };
    const [shortFirst, shortSecond] = await threadsOf(100);
    expect(shortSecond).not.toBe(shortFirst);
    const [longFirst, longSecond] = await threadsOf(60_000);
    expect(longSecond).toBe(longFirst);
  });

  test("local loads the model from the model directory", async () => {
    const logger = recordingLogger();
    const embedder = await create({ model: "frontdesk-tests/tiny-bert", modelDir: path.join(root, "models") }, logger);
    expect(embedder.status()).toEqual({ provider: "local", id: "local:frontdesk-tests/tiny-bert", degraded: false });
    expect(embedder.dimensions).toBe(TINY_HIDDEN_SIZE);
    expect(logger.entries.filter((entry) => entry.level === "warn")).toEqual([]);
    const [vector] = await embedder.embed(["refund"]);
    expect(norm(vector ?? new Float32Array())).toBeCloseTo(1, 5);
  });

  test("hashing needs no model", async () => {
    const embedder = await create({ provider: "hashing", dimensions: 128 });
    expect(embedder.status()).toEqual({ provider: "hashing", id: "hashing:v1:128", degraded: false });
  });

  test("openai builds a client for an OpenAI-compatible server", async () => {
    const embedder = await create({ provider: "openai", baseUrl: "http://127.0.0.1:9", model: "text-embedding-3-small", dimensions: 384 });
    expect(embedder.status()).toEqual({ provider: "openai", id: "openai:text-embedding-3-small:384", degraded: false });
  });
});

describe("createEmbedder (fallback)", () => {
  test("local without its model and without downloads falls back to hashing, degraded and loudly", async () => {
    const logger = recordingLogger();
    const embedder = await create({ modelDir: path.join(root, "empty") }, logger);

    const status = embedder.status();
    expect(status).toMatchObject({ provider: "hashing", id: "hashing:v1:384", degraded: true });
    expect(status.reason).toMatch(/Xenova\/all-MiniLM-L6-v2 is not in .*downloading models is off; embedding with hashing:v1:384 instead/);
    expect(embedder.id).toBe("hashing:v1:384");
    expect(embedder.dimensions).toBe(384);

    const warnings = logger.entries.filter((entry) => entry.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/^EMBEDDINGS DEGRADED: .* is not on disk and downloading it is off \(FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD=false\)/);
    expect(warnings[0]?.message).toContain(`in ${path.join(root, "empty", "Xenova", "all-MiniLM-L6-v2")}/,`);
    expect(warnings[0]?.details).toMatchObject({ model: "Xenova/all-MiniLM-L6-v2", problem: "not_found", fallback: "hashing:v1:384" });

    const [vector] = await embedder.embed(["the service keeps working"]);
    expect(vector).toHaveLength(384);
    expect(norm(vector ?? new Float32Array())).toBeCloseTo(1, 5);
  });

  test("local whose files are present but broken also falls back", async () => {
    const brokenRoot = path.join(root, "broken");
    const directory = await writeTinyBertModel(brokenRoot, "frontdesk-tests/tiny-bert");
    await rm(path.join(directory, "config.json"));
    const logger = recordingLogger();
    const embedder = await create({ model: "frontdesk-tests/tiny-bert", modelDir: brokenRoot }, logger);
    expect(embedder.status()).toMatchObject({ provider: "hashing", degraded: true });
    expect(embedder.status().reason).toMatch(/could not be loaded/);
    const [warning] = logger.entries.filter((entry) => entry.level === "warn");
    expect(warning?.message).toMatch(/^EMBEDDINGS DEGRADED: the embedding model frontdesk-tests\/tiny-bert is on disk but does not load \(.*config\.json/);
  });
});

describe("createEmbedder (error)", () => {
  test("openai without a base URL or model is a configuration error", async () => {
    await expect(create({ provider: "openai", model: "text-embedding-3-small" })).rejects.toBeInstanceOf(EmbeddingError);
    await expect(create({ provider: "openai", baseUrl: "http://127.0.0.1:9" })).rejects.toMatchObject({ failure: "invalid_config" });
  });
});
