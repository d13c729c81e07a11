import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import { searchByVector, searchByVectorWithLexemes } from "../../src/answering/retrieve/chunk-search-repository.js";
import { OwnVectorIndexes } from "../../src/answering/retrieve/own-vector-indexes.js";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open-database.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { replaceDocumentChunks, upsertDocuments } from "../../src/ingest/document-repository.js";
import { indexAgentVectors, type VectorIndexOptions } from "../../src/ingest/index-agent-vectors.js";
import { buildOwnVectorIndex, ownVectorIndexName, planVectorIndex } from "../../src/ingest/own-vector-index.js";
import { VectorIndexUpkeep } from "../../src/ingest/vector-index-upkeep.js";
import { describeUrlSource } from "../../src/sources/create-source.js";
import { insertSourceUnlessDuplicate } from "../../src/sources/source-repository.js";
import { claimOwnVectorIndex, findVectorIndexOf } from "../../src/tenants/agents.js";
import { indexesOf, plansOf } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

const TOPICS = ["delivery", "returns", "battery", "warranty", "frames", "brakes", "tyres", "lights"];
const passages = Array.from({ length: 40 }, (_, i) => `Article ${i}: ${TOPICS[i % TOPICS.length]} for model ${i % 5}, part ${2000 + i}, written for desk ${i % 3}.`);
const questions = ["delivery of model 3", "battery warranty part 2010", "brakes for desk 2", "lights of model 1 at desk 0"];

/** Own indexes from 30 chunks; the shared index from 10. */
const OPTIONS: VectorIndexOptions = { minChunks: 10, own: { minChunks: 30, buildMemoryMb: 64 } };

describeEachStore("a large agent's own HNSW index (migration 0051) on %s", (kind) => {
  let store: TestDatabase;
  let db: Database;
  let workspaceId: string;
  let nextDocument = 0;
  const embedder = new HashingEmbedder();

  async function newAgent(name: string): Promise<string> {
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    return ((await runAdminCommand(admin, { command: "agent.create", workspaceId, name, origins: ["https://desk.example"] })) as { id: string }).id;
  }

  /** A sitemap-like source of `urls.length` documents, all pending; `write` indexes the first ones with `contents`. */
  async function sourceWithDocuments(agentId: string, count: number): Promise<number[]> {
    const urls = Array.from({ length: count }, () => `https://desk.example/page-${(nextDocument += 1)}`);
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId, agentId, kind: "sitemap", url: `https://desk.example/sitemap-${nextDocument}.xml`, schedule: "off", now: new Date() }));
    return upsertDocuments(db, source!, urls);
  }

  async function write(agentId: string, documentId: number, contents: string[]): Promise<void> {
    const embedded = await embedder.embed(contents);
    await db.transaction((tx) =>
      replaceDocumentChunks(
        tx,
        { id: documentId, agentId },
        { title: "Article", contentHash: `hash-${documentId}`, embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: "english" },
        contents.map((content, index) => ({ index, title: "Article", heading: null, content, tokenEstimate: 20, embedding: embedded[index]! })),
      ),
    );
  }

  /** Writes `passages` four to a document of a new source of the agent; `pending` more documents are left to fetch. */
  async function seed(agentId: string, texts: string[], pending = 0): Promise<number[]> {
    const documents = await sourceWithDocuments(agentId, Math.ceil(texts.length / 4) + pending);
    for (let at = 0; at * 4 < texts.length; at += 1) await write(agentId, documents[at]!, texts.slice(at * 4, at * 4 + 4));
    return documents.slice(Math.ceil(texts.length / 4));
  }

  const flagsOf = async (agentId: string) => new Set((await db.query<{ flag: boolean }>(`SELECT vector_indexed AS flag FROM chunks WHERE agent_id = $1`, [agentId])).rows.map((row) => row.flag));

  const indexDefinition = async (agentId: string) =>
    (await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexname = $1`, [ownVectorIndexName(agentId)])).rows[0]?.indexdef ?? null;

  /** The agent's nearest chunks, computed by Postgres without any index (the answer every search must give). */
  async function exactNearest(agentId: string, vector: Float32Array, limit: number): Promise<number[]> {
    return db.transaction(async (tx) => {
      await tx.query(`SET LOCAL enable_indexscan = off`);
      await tx.query(`SET LOCAL enable_bitmapscan = off`);
      const { rows } = await tx.query<{ id: number }>(
        `SELECT id::int AS id FROM chunks WHERE agent_id = $1 ORDER BY (embedding::vector(384)) <=> $2::vector(384), id LIMIT $3`,
        [agentId, `[${[...vector].join(",")}]`, limit],
      );
      return rows.map((row) => row.id);
    });
  }

  beforeAll(async () => {
    store = await createTestDatabase(kind);
    db = store.db;
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    workspaceId = ((await runAdminCommand(admin, { command: "workspace.create", name: "Desk" })) as { id: string }).id;
  });

  afterAll(async () => {
    await embedder.close();
    await store.drop();
  });

  if (kind === "pglite") {
    it("edge: on PGlite a large agent enters the shared index, as every agent does", async () => {
      const agentId = await newAgent("Large on PGlite");
      await seed(agentId, passages);
      expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: true, promoted: true, flagged: passages.length });
      expect(await findVectorIndexOf(db, agentId)).toEqual({ shared: true, own: null });
      expect(await new OwnVectorIndexes().has(db, agentId)).toBe(false);
    });
    return;
  }

  it("happy: while its sync still has pages to fetch a large agent waits outside every index; when the sync ends its own index is built in bulk", async () => {
    const agentId = await newAgent("Large");
    const pending = await seed(agentId, passages.slice(0, 20), 5);
    // 20 chunks in 5 documents, 5 more documents to come at 4 a document: 40 expected, past 30.
    expect(await planVectorIndex(db, agentId, 30)).toBe("wait");
    expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: false, promoted: false, flagged: 0, own: "waiting" });
    expect(await flagsOf(agentId)).toEqual(new Set([false]));
    expect(await findVectorIndexOf(db, agentId)).toEqual({ shared: false, own: null });

    for (const [at, documentId] of pending.entries()) await write(agentId, documentId, passages.slice(20 + at * 4, 24 + at * 4));
    expect(await planVectorIndex(db, agentId, 30)).toBe("own");
    expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: true, promoted: false, flagged: 0, own: "built" });
    expect(await findVectorIndexOf(db, agentId)).toEqual({ shared: false, own: ownVectorIndexName(agentId) });
    expect(await indexDefinition(agentId)).toContain(`WHERE ((agent_id = '${agentId}'::text) AND (dimensions = 384))`);
    // Its chunks stay out of the shared index, and a second call has nothing to do.
    expect(await flagsOf(agentId)).toEqual(new Set([false]));
    expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: true, promoted: false, flagged: 0 });

    // Vector search reads the agent's own index and finds what an exact search finds.
    const caches = new OwnVectorIndexes();
    expect(await caches.has(db, agentId)).toBe(true);
    for (const text of questions) {
      const [vector] = await embedder.embed([text]);
      const found = await searchByVector(db, { agentId, embedder: embedder.id, vector: vector!, limit: 8, ownIndex: true });
      expect(found.map((hit) => hit.chunkId)).toEqual(await exactNearest(agentId, vector!, 8));
      const combined = await searchByVectorWithLexemes(db, { agentId, embedder: embedder.id, vector: vector!, limit: 8, ownIndex: true, text, textSearchConfig: "english" });
      expect(combined.nearest).toEqual(found);
    }
    const [vector] = await embedder.embed([questions[0]!]);
    const plan = await plansOf(db, (tx) => searchByVector({ ...db, query: tx.query.bind(tx) }, { agentId, embedder: embedder.id, vector: vector!, limit: 8, ownIndex: true }), ["SET LOCAL enable_seqscan = off"]);
    expect(indexesOf(plan)).toContain(ownVectorIndexName(agentId));

    // Chunks written later enter the agent's index as they are inserted, and are found.
    const [later] = await sourceWithDocuments(agentId, 1);
    await write(agentId, later!, ["Helmets of model 9 are fitted at the counter."]);
    const [helmet] = await embedder.embed(["Helmets of model 9 are fitted at the counter."]);
    const nearest = await searchByVector(db, { agentId, embedder: embedder.id, vector: helmet!, limit: 1, ownIndex: true });
    const { rows } = await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE document_id = $1`, [later!]);
    expect(nearest.map((hit) => hit.chunkId)).toEqual([rows[0]!.id]);
    expect(await flagsOf(agentId)).toEqual(new Set([false]));
  });

  it("happy: an agent below the own-index size enters the shared index, and a sync that will stay small is not waited for", async () => {
    const agentId = await newAgent("Medium");
    await seed(agentId, passages.slice(0, 12), 1);
    expect(await planVectorIndex(db, agentId, 30)).toBe("shared");
    expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: true, promoted: true, flagged: 12 });
    expect(await indexDefinition(agentId)).toBeNull();
    expect(await new OwnVectorIndexes().has(db, agentId)).toBe(false);
  });

  it("edge: an agent already in the shared index keeps it however large it grows; a build for it is refused", async () => {
    const agentId = await newAgent("Grown");
    await seed(agentId, passages.slice(0, 12));
    expect((await indexAgentVectors(db, agentId, OPTIONS)).promoted).toBe(true);
    await seed(agentId, passages.slice(12));
    expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: true, promoted: false, flagged: 0 });
    expect(await buildOwnVectorIndex(db, agentId, 64)).toBe("refused");
    expect(await findVectorIndexOf(db, agentId)).toEqual({ shared: true, own: null });
    expect(await indexDefinition(agentId)).toBeNull();
  });

  it("edge: own indexes off (0) send every agent to the shared index", async () => {
    const agentId = await newAgent("Off");
    await seed(agentId, passages);
    expect(await planVectorIndex(db, agentId, 0)).toBe("shared");
    expect(await indexAgentVectors(db, agentId, { minChunks: 10, own: { minChunks: 0, buildMemoryMb: 64 } })).toEqual({ indexed: true, promoted: true, flagged: passages.length });
  });

  it("error: a build a stopped process left invalid, or never began, is made again when the workers start", async () => {
    const agentId = await newAgent("Interrupted");
    await seed(agentId, passages);
    expect((await indexAgentVectors(db, agentId, OPTIONS)).own).toBe("built");
    const name = ownVectorIndexName(agentId);
    // A concurrent build killed midway leaves the index invalid (pg_index.indisvalid false).
    await db.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass($1)`, [`"${name}"`]);
    const built: string[] = [];
    const upkeep = new VectorIndexUpkeep(db, OPTIONS, (error) => built.push(String(error)), (agent, indexing) => built.push(`${agent}:${indexing.own}`), Date.now, 0);
    await upkeep.resume();
    await upkeep.settled();
    expect(built).toEqual([`${agentId}:built`]);
    const { rows } = await db.query<{ valid: boolean }>(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${name}"`]);
    expect(rows[0]!.valid).toBe(true);
    // Claimed, then the process stopped before CREATE INDEX: built at the next start.
    await db.query(`DROP INDEX "${name}"`);
    await upkeep.resume();
    await upkeep.settled();
    expect(built).toEqual([`${agentId}:built`, `${agentId}:built`]);
    expect(await indexDefinition(agentId)).not.toBeNull();
    // Nothing is left to do at the next start.
    await upkeep.resume();
    await upkeep.settled();
    expect(built).toHaveLength(2);
    await upkeep.close();
  });

  it("security: two processes asked to build one agent's index at once build it once", async () => {
    const agentId = await newAgent("Raced");
    await seed(agentId, passages);
    const other = await openDatabase({ kind: "postgres", url: store.url!, poolSize: 2 });
    try {
      const outcomes = await Promise.all([buildOwnVectorIndex(db, agentId, 64), buildOwnVectorIndex(other, agentId, 64)]);
      // The second asked waits for nobody: while the first builds it is `busy`, after it `exists`.
      expect(outcomes.filter((outcome) => outcome === "built")).toHaveLength(1);
      expect(["busy", "exists"]).toContain(outcomes.find((outcome) => outcome !== "built"));
      expect(await buildOwnVectorIndex(other, agentId, 64)).toBe("exists");
    } finally {
      await other.close();
    }
  });

  it("edge: workers that stop cancel a build under way; it is made again at their next start", async () => {
    const agentId = await newAgent("Stopped");
    await seed(agentId, passages);
    // A transaction that may write chunks keeps the concurrent build waiting: it is under way when stopped.
    const reader = await openDatabase({ kind: "postgres", url: store.url!, poolSize: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reading = reader.transaction(async (tx) => {
      await tx.query(`LOCK TABLE chunks IN ROW EXCLUSIVE MODE`);
      await held;
    });
    try {
      const stopping = new AbortController();
      const building = buildOwnVectorIndex(db, agentId, 64, stopping.signal);
      // A build that ends before it is seen under way makes the poll's failure say how ("busy", "refused").
      let settled: string | null = null;
      void building.then((outcome) => (settled = outcome));
      // The view covers the whole cluster: other test files build indexes in their own databases.
      const underWay = `SELECT 1 FROM pg_stat_progress_create_index WHERE datname = current_database()`;
      await expect.poll(async () => settled ?? (await db.query(underWay)).rows.length, { timeout: 20_000 }).toBe(1);
      stopping.abort();
      expect(await building).toBe("stopped");
    } finally {
      release();
      await reading;
      await reader.close();
    }
    const { rows } = await db.query<{ valid: boolean }>(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [`"${ownVectorIndexName(agentId)}"`]);
    expect(rows.map((row) => row.valid)).toEqual([false]);
    // Already stopped: nothing begins.
    const stopped = new AbortController();
    stopped.abort();
    expect(await buildOwnVectorIndex(db, agentId, 64, stopped.signal)).toBe("stopped");
    const upkeep = new VectorIndexUpkeep(db, OPTIONS, (error) => expect.fail(String(error)), () => {}, Date.now, 0);
    await upkeep.resume();
    await upkeep.settled();
    await upkeep.close();
    expect(await indexAgentVectors(db, agentId, OPTIONS)).toEqual({ indexed: true, promoted: false, flagged: 0 });
  });

  it("edge: retrieval believes an agent has no own index for 30 seconds, and once it has one, for good", async () => {
    const agentId = await newAgent("Cached");
    let now = 0;
    const indexes = new OwnVectorIndexes(() => now);
    expect(await indexes.has(db, agentId)).toBe(false);
    expect(await claimOwnVectorIndex(db, agentId, ownVectorIndexName(agentId))).toBe(true);
    now = 29_999;
    expect(await indexes.has(db, agentId)).toBe(false);
    now = 30_000;
    expect(await indexes.has(db, agentId)).toBe(true);
    // An own index is permanent: the answer is not read again.
    await db.query(`UPDATE agents SET own_vector_index = NULL WHERE id = $1`, [agentId]);
    now = 10_000_000;
    expect(await indexes.has(db, agentId)).toBe(true);
  });

  it("bad input: a string that is not an agent's id is never written into SQL", async () => {
    expect(() => ownVectorIndexName("x'; DROP TABLE chunks; --")).toThrow(/not an agent id/);
    expect(() => ownVectorIndexName("agt_0vCksqF883QexMr8YKA7V'")).toThrow(/not an agent id/);
    const [vector] = await embedder.embed(["delivery"]);
    await expect(searchByVector(db, { agentId: "agt_1' OR true --", embedder: embedder.id, vector: vector!, limit: 3, ownIndex: true })).rejects.toThrow(/not an agent id/);
    await expect(buildOwnVectorIndex(db, "agt_0vCk-qF8", 64)).rejects.toThrow(/not an agent id/);
    expect(() => ownVectorIndexName(`agt_${"a".repeat(41)}`)).toThrow(/not an agent id/);
    // An id of the first releases (20 random characters) is an agent's id too.
    expect(ownVectorIndexName("agt_0123456789abcdefABCD")).toBe("chunks_vectors_agt_0123456789abcdefABCD");
  });
});
