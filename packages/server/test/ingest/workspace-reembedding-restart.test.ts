import { afterAll, beforeAll, expect, it } from "vitest";
import { pino } from "pino";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { parseAdminArguments } from "../../src/cli/admin-arguments.js";
import { registerReembeddingWorkers } from "../../src/ingest/embedding-generations/register-reembedding-workers.js";
import { runReembedWorkspaceJob, type ReembeddingContext } from "../../src/ingest/embedding-generations/reembed-workspace-job.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { startLoopbackEmbeddingsServer, type LoopbackEmbeddingsServer } from "../embeddings/loopback-embeddings-server.js";

const KEY = "sk-restart-0123";
const NEW = "openai:embed-restart:8";

/**
 * A re-embedding survives a restart: what it did is in the store (the vectors written and the next
 * batch's job, in one transaction), so workers started later finish it, and a batch's job run
 * twice copies nothing twice. Changed here through the admin CLI's command.
 */
describeEachStore("a workspace's re-embedding across a restart on %s", (kind) => {
  let t: TestApp;
  let shop: Tenant;
  let server: LoopbackEmbeddingsServer;
  let context: ReembeddingContext;

  beforeAll(async () => {
    server = await startLoopbackEmbeddingsServer({ apiKey: KEY, model: "embed-restart", dimensions: 8 });
    // This process indexes but has not started re-embedding workers: the jobs wait in the store.
    t = await createTestApp(kind, { FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS: "true" }, { workers: {}, reembedding: false });
    shop = await seedTenant(t.services);
    await pushKnowledge(t, shop.workspaceId, shop.agentId, bikeShopKnowledge);
    context = { db: t.services.db, jobs: t.services.jobs, pipeline: t.pipeline!, embedders: t.services.embedders, logger: pino({ level: "silent" }) };
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  const generation = async () =>
    (await t.services.db.query<{ id: string; state: string; done: number; total: number }>(`SELECT id, state, done, total FROM embedding_generations WHERE workspace_id = $1 AND state <> 'active'`, [shop.workspaceId])).rows[0];
  const positions = async () =>
    (
      await t.services.db.query<{ embedder: string; chunks: number; positions: number }>(
        `SELECT c.embedder, count(*)::int AS chunks, count(DISTINCT (c.document_id, c.chunk_index))::int AS positions
         FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.workspace_id = $1 GROUP BY c.embedder ORDER BY c.embedder`,
        [shop.workspaceId],
      )
    ).rows;

  it("happy: workers started after a stop finish the re-embedding where it stopped, each chunk copied once", async () => {
    const command = parseAdminArguments(
      ["workspace", "set-embeddings", "--workspace", shop.workspaceId, "--provider", "openai-compatible", "--base-url", server.origin, "--model", "embed-restart", "--dimensions", "8", "--api-key-stdin"],
      () => KEY,
    );
    const status = (await runAdminCommand(adminOf(t.services), command)) as { reembedding: { state: string; done: number; total: number } };
    expect(status.reembedding).toMatchObject({ state: "running", done: 0 });
    const total = status.reembedding.total;
    expect(total).toBeGreaterThan(2);

    // A process did one batch of two chunks, then stopped (its next batch's job is queued with it).
    const pending = (await generation())!;
    await runReembedWorkspaceJob({ ...context, batchSize: 2 }, { workspaceId: shop.workspaceId, generationId: pending.id }, { id: "stopped", isLastAttempt: false });
    expect(await generation()).toMatchObject({ state: "reembedding", done: 2, total });

    // Restarted: the queued jobs (the first one and the stopped process's next) are both run, and finish it.
    await registerReembeddingWorkers(context);
    for (let attempt = 0; attempt < 600 && (await generation()) !== undefined; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await generation()).toBeUndefined();
    for (let attempt = 0; attempt < 600 && (await positions()).length > 1; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await positions()).toEqual([{ embedder: NEW, chunks: total, positions: total }]);
    const shown = (await runAdminCommand(adminOf(t.services), { command: "workspace.embeddings", workspaceId: shop.workspaceId })) as { active: { embedder: string } };
    expect(shown.active.embedder).toBe(NEW);
    expect(JSON.stringify(shown)).not.toContain(KEY);
  });

  it("error: the admin command refuses a bad choice with the field", async () => {
    await expect(
      runAdminCommand(adminOf(t.services), { command: "workspace.set-embeddings", workspaceId: shop.workspaceId, provider: "openai-compatible", model: "embed-restart" }),
    ).rejects.toMatchObject({ code: "validation_failed", fields: { base_url: [expect.any(String)] } });
    await expect(runAdminCommand(adminOf(t.services), { command: "workspace.embeddings", workspaceId: "ws_missing" })).rejects.toMatchObject({ code: "not_found" });
    expect(() => parseAdminArguments(["workspace", "set-embeddings", "--workspace", "w", "--provider", "ollama"])).toThrow("--provider must be one of");
    expect(() => parseAdminArguments(["workspace", "set-embeddings", "--workspace", "w", "--provider", "hashing", "--dimensions", "many"])).toThrow("--dimensions must be a whole number");
  });
});
