import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parsePrometheusText, sampleValue, type Sample } from "../support/prometheus-text.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";
import { BIN, freePort, json, run, startServer, stopServer } from "./cli-process.js";

/**
 * One API-only serve (no workers) and one `bin/frontdesk worker` with FRONTDESK_METRICS_PORT on a
 * shared Postgres, started once for the file: the tests send sources through the API and watch the
 * worker index them (in the API, in the worker's log, in its /metrics); the last stops both.
 */
describeNeeding("postgres")("bin/frontdesk worker", () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let token: string;
  let agentId: string;
  let apiPort: number;
  let metricsPort: number;
  let api: { child: ChildProcess; log: () => string };
  let worker: ChildProcess;
  let workerLog = "";
  /** Sources the worker has indexed so far (each test waits for its own). */
  let indexed = 0;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    env = {
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-worker-")),
      FRONTDESK_DATABASE_URL: database.url!,
      FRONTDESK_LOG_LEVEL: "info",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    };
    const workspace = json(await run(env, "admin", "workspace", "create", "--name", "W"));
    agentId = json(await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "Bot", "--origin", "https://w.test")).id;
    token = json(await run(env, "admin", "token", "create", "--workspace", workspace.id, "--name", "sync")).token as string;
    apiPort = await freePort();
    metricsPort = await freePort();
    api = await startServer({ ...env, FRONTDESK_WORKER_CONCURRENCY: "0" }, apiPort);
    worker = spawn(process.execPath, [BIN, "worker"], {
      env: { PATH: process.env.PATH ?? "", ...env, FRONTDESK_METRICS_PORT: String(metricsPort) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (chunk: Buffer) => (workerLog += chunk.toString()));
    worker.stderr!.on("data", (chunk: Buffer) => (workerLog += chunk.toString()));
    for (let attempt = 0; !logLines().some((line) => line.msg === "metrics listening"); attempt += 1) {
      if (worker.exitCode !== null) throw new Error(`worker exited: ${workerLog}`);
      if (attempt > 600) throw new Error(`worker metrics never listened: ${workerLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 150_000);
  afterAll(async () => {
    if (worker) await stopServer(worker);
    if (api) await stopServer(api.child);
    await database?.drop();
  });

  const logLines = () => workerLog.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
  const sources = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${apiPort}/api/v1/workspace/sources${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
  const createText = async (content: string) =>
    ((await (await sources("", { method: "POST", body: JSON.stringify({ agent_id: agentId, kind: "text", content }) })).json()) as { data: { id: string } }).data.id;
  const workerMetrics = async () => parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
  const processed = (samples: Sample[]) => sampleValue(samples, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "completed" }) ?? 0;
  const embedded = (samples: Sample[]) => sampleValue(samples, "frontdesk_ingest_chunks_embedded_total") ?? 0;

  it("happy: an API-only serve (no workers) and a separate worker process share the indexing", async () => {
    const id = await createText("Bikes are serviced within 48 hours.");
    let status = "pending";
    for (let attempt = 0; attempt < 200 && status === "pending"; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = ((await (await sources(`/${id}`)).json()) as { data: { status: string } }).data.status;
    }
    expect(status).toBe("indexed");
    indexed += 1;
  }, 60_000);

  it("happy: the worker serves its own /metrics (jobs it ran, chunks it embedded, the shared queue) and logs the indexing", async () => {
    // The jobs of the tests before, counted once they completed (a source reads indexed a moment earlier).
    await expect.poll(async () => processed(await workerMetrics()), { timeout: 30_000 }).toBe(indexed);
    const before = await workerMetrics();
    const id = await createText("Bikes are serviced within 48 hours at the Elmby workshop.");
    // The operator watches the worker's log, not the API.
    for (let attempt = 0; !logLines().some((line) => line.msg === "source indexed" && line.sourceId === id); attempt += 1) {
      if (attempt > 600) throw new Error(`never indexed: ${workerLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(logLines().find((line) => line.msg === "source indexing started" && line.sourceId === id)).toMatchObject({ level: 30, sourceId: id, kind: "text" });

    const samples = await workerMetrics();
    expect(processed(samples) - processed(before)).toBe(1);
    expect(embedded(samples) - embedded(before)).toBe(1);
    expect(sampleValue(samples, "frontdesk_job_queue_depth", { name: "index-source" })).toBe(0);
    expect(sampleValue(samples, "frontdesk_process_resident_memory_bytes")).toBeGreaterThan(0);
    // The API-only serve reads the same queue from the shared store; it ran no job itself.
    const apiSamples = parsePrometheusText(await (await fetch(`http://127.0.0.1:${apiPort}/metrics`)).text());
    expect(sampleValue(apiSamples, "frontdesk_job_queue_depth", { name: "index-source" })).toBe(0);
    expect(sampleValue(apiSamples, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "completed" })).toBeUndefined();

    const other = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  }, 150_000);

  it("happy: the worker and the API-only serve stop cleanly on SIGTERM", async () => {
    await stopServer(worker);
    await stopServer(api.child);
    expect(worker.exitCode, workerLog).toBe(0);
    expect(api.child.exitCode, api.log()).toBe(0);
  }, 60_000);

  it("error: a worker on the embedded PGlite store refuses to start, saying why", async () => {
    const result = await run({ FRONTDESK_DATA_DIR: env.FRONTDESK_DATA_DIR!, FRONTDESK_LOG_LEVEL: "warn" }, "worker");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("FRONTDESK_DATABASE_URL");
  });

  it("error: a FRONTDESK_METRICS_PORT that is not a port stops the start (exit 78) naming the variable", async () => {
    const result = await run({ ...env, FRONTDESK_METRICS_PORT: "metrics" }, "worker");
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("FRONTDESK_METRICS_PORT");
  }, 60_000);
});
