import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parsePrometheusText, sampleValue } from "../support/prometheus-text.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";
import { BIN, freePort, json, run, startServer, stopServer } from "./cli-process.js";

describeNeeding("postgres")("bin/frontdesk worker with FRONTDESK_METRICS_PORT", () => {
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    env = {
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-worker-metrics-")),
      FRONTDESK_DATABASE_URL: database.url!,
      FRONTDESK_LOG_LEVEL: "info",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    };
  });
  afterAll(() => database?.drop());

  it("happy: the worker serves its own /metrics (jobs it ran, chunks it embedded, the shared queue) and logs the indexing", async () => {
    const workspace = json(await run(env, "admin", "workspace", "create", "--name", "W"));
    const agent = json(await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "Bot", "--origin", "https://w.test"));
    const token = json(await run(env, "admin", "token", "create", "--workspace", workspace.id, "--name", "sync")).token as string;
    const apiPort = await freePort();
    const metricsPort = await freePort();
    const api = await startServer({ ...env, FRONTDESK_WORKER_CONCURRENCY: "0" }, apiPort);
    const worker = spawn(process.execPath, [BIN, "worker"], {
      env: { PATH: process.env.PATH ?? "", ...env, FRONTDESK_METRICS_PORT: String(metricsPort) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let workerLog = "";
    worker.stdout.on("data", (chunk: Buffer) => (workerLog += chunk.toString()));
    worker.stderr.on("data", (chunk: Buffer) => (workerLog += chunk.toString()));
    const workerMetrics = async () => parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
    const logLines = () => workerLog.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    try {
      for (let attempt = 0; ; attempt += 1) {
        if (worker.exitCode !== null) throw new Error(`worker exited: ${workerLog}`);
        if (logLines().some((line) => line.msg === "metrics listening")) break;
        if (attempt > 600) throw new Error(`worker metrics never listened: ${workerLog}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const created = (await (
        await fetch(`http://127.0.0.1:${apiPort}/api/v1/workspace/sources`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ agent_id: agent.id, kind: "text", content: "Bikes are serviced within 48 hours at the Leeds workshop." }),
        })
      ).json()) as { data: { id: string } };
      // The operator watches the worker's log, not the API.
      for (let attempt = 0; !logLines().some((line) => line.msg === "source indexed" && line.sourceId === created.data.id); attempt += 1) {
        if (attempt > 600) throw new Error(`never indexed: ${workerLog}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(logLines().find((line) => line.msg === "source indexing started")).toMatchObject({ level: 30, sourceId: created.data.id, kind: "text" });

      const samples = await workerMetrics();
      expect(sampleValue(samples, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "completed" })).toBe(1);
      expect(sampleValue(samples, "frontdesk_ingest_chunks_embedded_total")).toBe(1);
      expect(sampleValue(samples, "frontdesk_job_queue_depth", { name: "index-source" })).toBe(0);
      expect(sampleValue(samples, "frontdesk_process_resident_memory_bytes")).toBeGreaterThan(0);
      // The API-only serve reads the same queue from the shared store; it ran no job itself.
      const apiSamples = parsePrometheusText(await (await fetch(`http://127.0.0.1:${apiPort}/metrics`)).text());
      expect(sampleValue(apiSamples, "frontdesk_job_queue_depth", { name: "index-source" })).toBe(0);
      expect(sampleValue(apiSamples, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "completed" })).toBeUndefined();

      const other = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    } finally {
      await stopServer(worker);
      await stopServer(api.child);
    }
    expect(worker.exitCode).toBe(0);
  }, 150_000);

  it("error: a FRONTDESK_METRICS_PORT that is not a port stops the start (exit 78) naming the variable", async () => {
    const result = await run({ ...env, FRONTDESK_METRICS_PORT: "metrics" }, "worker");
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("FRONTDESK_METRICS_PORT");
  }, 60_000);
});
