import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import type { Database } from "../../src/db/database.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { deleteDocument, findDocument, replaceDocumentChunks, upsertDocuments } from "../../src/ingest/document-repository.js";
import { indexDocumentContent, indexPreparedDocument, ONE_STATEMENT_MAX_CHUNKS } from "../../src/ingest/index-document.js";
import type { IngestPipeline } from "../../src/ingest/ingest-pipeline.js";
import { instanceEmbedderOnly } from "../../src/ingest/embedding-generations/workspace-embedders.js";
import { createExtractionPool } from "../../src/ingest/extract/extraction-pool.js";
import { unobservedIngestMetrics } from "../../src/observability/ingest-metrics.js";
import { describeUrlSource } from "../../src/sources/create-source.js";
import { insertSourceUnlessDuplicate } from "../../src/sources/source-repository.js";
import { compiledWorkerUrl } from "../support/compiled-worker.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

describeEachStore("storing a document's chunks on %s", (kind) => {
  let store: TestDatabase;
  let db: Database;
  let agentId: string;
  let workspaceId: string;
  let page = 0;
  const embedder = new HashingEmbedder({ workerUrl: compiledWorkerUrl("embeddings/hashing-embedding-worker.js") });
  const extraction = createExtractionPool({ size: 1, workerUrl: compiledWorkerUrl("ingest/extract/extract-worker.js") });
  const pipeline = { embedder, embedders: instanceEmbedderOnly(embedder), extraction, metrics: unobservedIngestMetrics } as unknown as IngestPipeline;

  async function newDocument(): Promise<number> {
    const url = `https://shop.example/doc-${(page += 1)}`;
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId, agentId, kind: "url", url, schedule: "off", now: new Date() }));
    const [id] = await upsertDocuments(db, source!, [url]);
    return id!;
  }

  const meta = { title: "Delivery", contentHash: "h1", embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: "english" };
  const chunk = async (content: string) => ({ index: 0, title: "Delivery", heading: null, content, tokenEstimate: 8, embedding: (await embedder.embed([content]))[0]! });

  beforeAll(async () => {
    store = await createTestDatabase(kind);
    db = store.db;
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    workspaceId = ((await runAdminCommand(admin, { command: "workspace.create", name: "Shop" })) as { id: string }).id;
    agentId = ((await runAdminCommand(admin, { command: "agent.create", workspaceId, name: "Bot", origins: ["https://shop.example"] })) as { id: string }).id;
  });
  afterAll(async () => {
    await extraction.close();
    await embedder.close();
    await store.drop();
  });

  it("happy: the document row, its validators and its chunks are written in one transaction", async () => {
    const id = await newDocument();
    const stored = await db.transaction(async (tx) =>
      replaceDocumentChunks(tx, { id, agentId }, { ...meta, validators: { etag: '"v1"', lastModified: "Tue, 24 Nov 2026 05:00:00 GMT" } }, [await chunk("Delivery takes two days.")]),
    );
    expect(stored).toBe(true);
    const { rows } = await db.query<{ status: string; chunk_count: number; etag: string; last_modified: string; chunks: number }>(
      `SELECT status, chunk_count, etag, last_modified, (SELECT count(*)::int FROM chunks WHERE document_id = $1) AS chunks FROM documents WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ status: "indexed", chunk_count: 1, etag: '"v1"', last_modified: "Tue, 24 Nov 2026 05:00:00 GMT", chunks: 1 });
  });

  it("happy: a chunk's stored vector is its embedding's direction, kept to float32 precision, and a zero vector stays zero", async () => {
    const id = await newDocument();
    const embedding = Float32Array.from({ length: embedder.dimensions }, (_, i) => Math.sin(i + 1) * (i % 7 === 0 ? 3 : 0.001));
    const zero = new Float32Array(embedder.dimensions);
    await db.transaction(async (tx) =>
      replaceDocumentChunks(tx, { id, agentId }, meta, [
        { index: 0, title: "Delivery", heading: null, content: "Delivery takes two days.", tokenEstimate: 6, embedding },
        { index: 1, title: "Delivery", heading: null, content: "Nothing.", tokenEstimate: 2, embedding: zero },
      ]),
    );
    const { rows } = await db.query<{ embedding: string }>(`SELECT embedding::text AS embedding FROM chunks WHERE document_id = $1 ORDER BY chunk_index`, [id]);
    const [stored, storedZero] = rows.map((row) => JSON.parse(row.embedding) as number[]);
    const norm = Math.hypot(...embedding);
    expect(stored).toHaveLength(embedder.dimensions);
    stored!.forEach((value, i) => expect(Math.abs(value - embedding[i]! / norm)).toBeLessThan(1e-7));
    expect(Math.hypot(...stored!)).toBeCloseTo(1, 6);
    expect(storedZero).toEqual(Array.from(zero));
  });

  it("happy: a document of more chunks than one statement takes (a large file) is written in batches, with its pages, validators and a new revision", async () => {
    const id = await newDocument();
    const count = ONE_STATEMENT_MAX_CHUNKS * 2 + 37;
    const revision = async () =>
      (await db.query<{ revision: string }>(`SELECT coalesce((SELECT revision::text FROM knowledge_revisions WHERE agent_id = $1), '0') AS revision`, [agentId])).rows[0]!.revision;
    const before = await revision();
    const chunks = Array.from({ length: count }, (_, index) => ({
      index,
      heading: null,
      title: `Manual.pdf, page ${Math.floor(index / 4) + 1}`,
      text: `Part ${index} of the manual: the torque of bolt ${index} is ${index % 40} newton metres.`,
      tokenEstimate: 16,
      page: Math.floor(index / 4) + 1,
    }));
    const text = chunks.map((chunk) => chunk.text).join("\n\n");
    const prepared = { document: { title: "Manual.pdf", text, sections: [{ heading: null, text }] }, chunks };
    const document = (await findDocument(db, id))!;
    expect(await indexPreparedDocument(db, pipeline, document, prepared, 123_456, { etag: '"m1"', lastModified: null })).toEqual({ kind: "indexed", chunks: count });

    const { rows } = await db.query<{ status: string; chunk_count: number; content_bytes: number; etag: string; chunks: number; pages: number; last_page: number }>(
      `SELECT status, chunk_count, content_bytes, etag, (SELECT count(*)::int FROM chunks WHERE document_id = $1) AS chunks,
         (SELECT count(DISTINCT page)::int FROM chunks WHERE document_id = $1) AS pages, (SELECT max(page) FROM chunks WHERE document_id = $1) AS last_page
       FROM documents WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ status: "indexed", chunk_count: count, content_bytes: 123_456, etag: '"m1"', chunks: count, pages: Math.ceil(count / 4), last_page: Math.ceil(count / 4) });
    const { rows: indexes } = await db.query<{ chunk_index: number }>(`SELECT chunk_index FROM chunks WHERE document_id = $1 ORDER BY chunk_index`, [id]);
    expect(indexes.map((row) => row.chunk_index)).toEqual(chunks.map((chunk) => chunk.index));
    expect(await revision()).not.toBe(before);

    // Written again with fewer chunks: the old ones are all gone.
    const fewer = { ...prepared, document: { ...prepared.document, text: `${text} (second edition)` }, chunks: chunks.slice(0, ONE_STATEMENT_MAX_CHUNKS + 1) };
    await indexPreparedDocument(db, pipeline, (await findDocument(db, id))!, fewer, 1000);
    const { rows: after } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE document_id = $1`, [id]);
    expect(after[0]!.n).toBe(ONE_STATEMENT_MAX_CHUNKS + 1);

    // Deleted meanwhile: nothing written, document_deleted.
    const gone = await newDocument();
    const goneDocument = (await findDocument(db, gone))!;
    expect(await deleteDocument(db, gone)).toBe(true);
    await expect(indexPreparedDocument(db, pipeline, goneDocument, prepared, 1000)).rejects.toMatchObject({ code: "document_deleted" });
    const { rows: none } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE document_id = $1`, [gone]);
    expect(none[0]!.n).toBe(0);
  });

  it("error: a document deleted while it was indexed gets no chunks, and indexing it fails with document_deleted", async () => {
    const id = await newDocument();
    const document = (await findDocument(db, id))!;
    expect(await deleteDocument(db, id)).toBe(true);
    const stored = await db.transaction(async (tx) => replaceDocumentChunks(tx, { id, agentId }, meta, [await chunk("Returns are free.")]));
    expect(stored).toBe(false);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE document_id = $1`, [id]);
    expect(rows[0]!.n).toBe(0);
    await expect(indexDocumentContent(db, pipeline, document, { body: "Returns are free within 60 days of delivery.", contentType: "text/plain", url: document.url })).rejects.toMatchObject({
      code: "document_deleted",
    });
  });
});
