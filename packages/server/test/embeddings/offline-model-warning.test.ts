import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createEmbedder, type EmbedderConfig } from "../../src/embeddings/create-embedder.js";
import type { Embedder } from "../../src/embeddings/embedder.js";
import { freePort } from "../cli/cli-process.js";
import { frontdesk } from "../cli/frontdesk-process.js";
import { hashingWorkerUrl, localWorkerUrl } from "./compiled-workers.js";
import { startLoopbackModelHub } from "./loopback-model-hub.js";

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const MODEL = "Xenova/all-MiniLM-L6-v2";
const FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];
let root: string;
let closedHost: string;
const opened: Embedder[] = [];

/** Creates the embedder with a real pino logger and returns every line it logged. */
async function createLogged(config: Partial<EmbedderConfig>, localRuntimePackages?: string[]): Promise<{ embedder: Embedder; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const embedder = await createEmbedder(
    { provider: "local", cacheDir: path.join(root, "data", "models"), allowRemoteModels: true, ...config },
    logger,
    { localWorkerUrl, hashingWorkerUrl, localRuntimePackages },
  );
  opened.push(embedder);
  return { embedder, lines };
}

/** The warning is one paragraph in which no sentence is said twice. */
function expectReadable(message: string): void {
  expect(message).not.toContain("\n");
  expect(message).not.toMatch(/\bat .+:\d+:\d+/);
  const sentences = message.split(/(?<=\.) /);
  expect(new Set(sentences).size).toBe(sentences.length);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "frontdesk-offline-model-"));
  closedHost = `http://127.0.0.1:${await freePort()}/`;
});

afterAll(async () => {
  await Promise.all(opened.map((embedder) => embedder.close()));
  await rm(root, { recursive: true, force: true });
});

describe("first start offline (error)", () => {
  test("an unreachable model host gives one warning: what failed, the files, where they go, how to silence it", async () => {
    const { embedder, lines } = await createLogged({ remoteHost: closedHost });
    expect(embedder.status()).toMatchObject({ provider: "hashing", degraded: true });

    expect(lines).toHaveLength(1);
    const [line] = lines;
    const directory = path.join(root, "data", "models", "Xenova", "all-MiniLM-L6-v2");
    expect(line?.level).toBe(40);
    expect(line).not.toHaveProperty("err");
    expect(line?.msg).toBe(
      `EMBEDDINGS DEGRADED: the embedding model ${MODEL} could not be fetched (${closedHost}${MODEL}/resolve/main/config.json: ECONNREFUSED). ` +
        "Until then the service embeds with hashing:v1:384 (keyword hashing) and answers are less relevant. " +
        "Put its files (config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx (or onnx/model_quantized.onnx), " +
        `as in the model's Hugging Face repository) in ${directory}/ (or in <dir>/${MODEL}/ with FRONTDESK_EMBEDDINGS_MODEL_DIR=<dir>), ` +
        "restart, then run `bin/frontdesk reindex`. FRONTDESK_EMBEDDINGS_PROVIDER=hashing silences this warning.",
    );
    expectReadable(line?.msg ?? "");
    expect(line).toMatchObject({ model: MODEL, problem: "download_failed", directory, files: FILES, fallback: "hashing:v1:384" });
  });

  test("a model directory names that directory as the place for the files", async () => {
    const modelDir = path.join(root, "hand-placed");
    const { lines } = await createLogged({ remoteHost: closedHost, modelDir });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toContain(`in ${path.join(modelDir, "Xenova", "all-MiniLM-L6-v2")}/, restart`);
    expect(lines[0]?.msg).not.toContain("with FRONTDESK_EMBEDDINGS_MODEL_DIR=<dir>");
  });

  test("a host without the model (404) is a failed fetch, and no partial file is left to pass for a model", async () => {
    const hub = await startLoopbackModelHub(path.join(root, "empty-hub"));
    try {
      const cacheDir = path.join(root, "cache-404");
      const { embedder, lines } = await createLogged({ remoteHost: hub.url, cacheDir });
      expect(embedder.status().degraded).toBe(true);
      expect(lines).toHaveLength(1);
      expect(lines[0]?.msg).toContain(`could not be fetched (${hub.url}${MODEL}/resolve/main/config.json: HTTP 404)`);
      await expect(readdir(cacheDir)).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await hub.close();
    }
  });

  test("missing runtime packages are named, with what to install instead of where to put files", async () => {
    const { embedder, lines } = await createLogged({ remoteHost: closedHost }, ["onnxruntime-node", "frontdesk-absent-runtime"]);
    expect(embedder.status()).toMatchObject({ provider: "hashing", degraded: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40);
    expect(lines[0]?.msg).toBe(
      `EMBEDDINGS DEGRADED: the embedding model ${MODEL} cannot run: the local embedding provider needs the optional packages ` +
        "frontdesk-absent-runtime, which are not installed (npm install --omit=optional leaves them out): run `npm install` in the " +
        "Frontdesk directory. Until then the service embeds with hashing:v1:384 (keyword hashing) and answers are less relevant. " +
        "FRONTDESK_EMBEDDINGS_PROVIDER=hashing silences this warning.",
    );
    expect(lines[0]).toMatchObject({ problem: "runtime_missing" });
  });

  test("bin/frontdesk serve started offline logs the warning once, without a stack trace, and serves", async () => {
    const port = await freePort();
    const service = frontdesk(
      { FRONTDESK_DATA_DIR: path.join(root, "serve-data"), FRONTDESK_PORT: String(port), FRONTDESK_EMBEDDINGS_MODEL_HOST: closedHost },
      "serve",
    );
    try {
      await service.waitFor(/Frontdesk is listening/, 110_000);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toMatchObject({ status: "degraded", embeddings: { provider: "hashing", degraded: true } });
    } finally {
      service.child.kill("SIGTERM");
      await service.exit();
    }
    const output = service.output();
    const mentions = output.split("\n").filter((line) => line.includes("embedding model"));
    expect(mentions).toHaveLength(1);
    expect(mentions[0]).toContain('"level":40');
    expect(mentions[0]).toContain("could not be fetched");
    expect(mentions[0]).toContain("FRONTDESK_EMBEDDINGS_PROVIDER=hashing silences this warning.");
    expect(output).not.toMatch(/"stack"|\n\s+at /);
  }, 120_000);

  test("FRONTDESK_EMBEDDINGS_PROVIDER=hashing silences it", async () => {
    const { embedder, lines } = await createLogged({ provider: "hashing", remoteHost: closedHost });
    expect(embedder.status().degraded).toBe(false);
    expect(lines).toEqual([]);
  });
});
