import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import type { Embedder } from "../../src/embeddings/embedder.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { createIngestPipeline, type IngestPipeline } from "../../src/ingest/ingest-pipeline.js";
import { IngestProgressLog } from "../../src/ingest/ingest-progress-log.js";
import type { IngestJobContext } from "../../src/ingest/ingest-job-context.js";
import { runIndexWordpressPostsJob } from "../../src/wordpress/index-wordpress-posts-job.js";
import { adminOf, bearer, seedTenant, SITE_ORIGIN, type Tenant } from "../support/seed.js";
import { compiledWorkerUrl, createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

/** The hashing embedder; after hold(), its next call waits until letGo(), and `entered` says it was reached. */
class HeldEmbedder extends HashingEmbedder implements Embedder {
  private gate: Promise<void> | null = null;
  private release: () => void = () => undefined;
  private enter: () => void = () => undefined;
  entered: Promise<void> = Promise.resolve();
  hold(): void {
    this.entered = new Promise((resolve) => (this.enter = resolve));
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  letGo(): void {
    this.release();
    this.gate = null;
  }
  override async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.enter();
    if (this.gate) await this.gate;
    return super.embed(texts);
  }
}

const post = (version: number) => ({
  post_id: 1,
  url: `${SITE_ORIGIN}/blog/race`,
  title: "Race",
  content: `<p>The race post in version ${version}.</p>`,
  modified_at: `2026-01-0${version}T10:00:00Z`,
  status: "publish",
  type: "post",
});

/**
 * An indexing job that read a post before a newer push must not write the older text over it: the
 * job locks the posts when it writes and skips any whose hash changed. Driven step by step (no
 * workers; the job is run by hand, its embedder held while the newer push lands).
 */
describeEachStore("WordPress indexing never writes a post's older text over a newer push, on %s", (kind) => {
  const embedder = new HeldEmbedder();
  let t: TestApp;
  let tenant: Tenant;
  let token: string;
  let pipeline: IngestPipeline;
  let context: IngestJobContext;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { embedder });
    tenant = await seedTenant(t.services);
    token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "wp", abilities: ["wp:sync"] })) as { token: string }).token;
    pipeline = createIngestPipeline(t.services.config, embedder, { extractionWorkerUrl: compiledWorkerUrl("ingest/extract/extract-worker.js") });
    const logger = pino({ level: "silent" });
    context = { db: t.services.db, jobs: t.services.jobs, events: t.services.events, pipeline, logger, progress: new IngestProgressLog(logger) };
  });
  afterAll(async () => {
    await pipeline.close();
    await t.close();
  });

  const push = async (version: number) => {
    const response = await t.app.inject({ method: "POST", url: "/api/v1/wp/posts", headers: bearer(token), payload: { agent_id: tenant.agentId, posts: [post(version)] } });
    expect(response.json().data.results[0].result).toBe("queued");
    return response.json().data.source_id as string;
  };
  const documentState = async () =>
    (
      await t.services.db.query<{ status: string; chunks: string | null }>(
        `SELECT d.status, (SELECT string_agg(c.content, ' ') FROM chunks c WHERE c.document_id = d.id) AS chunks
         FROM documents d JOIN wordpress_posts p ON p.document_id = d.id WHERE p.agent_id = $1 AND p.post_id = 1`,
        [tenant.agentId],
      )
    ).rows[0];

  it("security: the job that read version 1 skips the post once version 2 is pushed; version 2's job writes it", async () => {
    const sourceId = await push(1);
    const [{ id: documentId }] = (
      await t.services.db.query<{ id: number }>(`SELECT document_id::int AS id FROM wordpress_posts WHERE agent_id = $1 AND post_id = 1`, [tenant.agentId])
    ).rows as [{ id: number }];
    const attempt = { id: "by-hand", isLastAttempt: true };

    embedder.hold();
    const stale = runIndexWordpressPostsJob(context, { sourceId, documentIds: [documentId] }, attempt);
    await embedder.entered; // the job has read and extracted version 1
    await push(2);
    embedder.letGo();
    await stale;
    expect(await documentState()).toEqual({ status: "pending", chunks: null });

    await runIndexWordpressPostsJob(context, { sourceId, documentIds: [documentId] }, attempt);
    const state = await documentState();
    expect(state?.status).toBe("indexed");
    expect(state?.chunks).toContain("version 2");
    expect(state?.chunks).not.toContain("version 1");
  });
});
