import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";
import { BIN, freePort, json, run, startServer, stopServer } from "./cli-process.js";

describeNeeding("postgres")("bin/frontdesk worker", () => {
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    env = {
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-worker-")),
      FRONTDESK_DATABASE_URL: database.url!,
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    };
  });
  afterAll(() => database.drop());

  it("happy: an API-only serve (no workers) and a separate worker process share the indexing", async () => {
    const workspace = json(await run(env, "admin", "workspace", "create", "--name", "W"));
    const agent = json(await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "Bot", "--origin", "https://w.test"));
    const token = json(await run(env, "admin", "token", "create", "--workspace", workspace.id, "--name", "sync")).token as string;
    const port = await freePort();
    const api = await startServer({ ...env, FRONTDESK_WORKER_CONCURRENCY: "0" }, port);
    const worker = spawn(process.execPath, [BIN, "worker"], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    try {
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`http://127.0.0.1:${port}/api/v1/workspace/sources${path}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        });
      const created = (await (await call("", { method: "POST", body: JSON.stringify({ agent_id: agent.id, kind: "text", content: "Bikes are serviced within 48 hours." }) })).json()) as {
        data: { id: string };
      };
      let status = "pending";
      for (let attempt = 0; attempt < 200 && status === "pending"; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = ((await (await call(`/${created.data.id}`)).json()) as { data: { status: string } }).data.status;
      }
      expect(status).toBe("indexed");
    } finally {
      await stopServer(worker);
      await stopServer(api.child);
    }
    expect(worker.exitCode).toBe(0);
  }, 60_000);

  it("error: a worker on the embedded PGlite store refuses to start, saying why", async () => {
    const result = await run({ FRONTDESK_DATA_DIR: env.FRONTDESK_DATA_DIR!, FRONTDESK_LOG_LEVEL: "warn" }, "worker");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("FRONTDESK_DATABASE_URL");
  });
});
