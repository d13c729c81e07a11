import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import type { Queryable } from "../../src/db/database.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { replaceDocumentChunks, upsertDocuments, upsertDocumentsToIndex } from "../../src/ingest/document-repository.js";
import { excludeDocument, findSourceDocument, includeDocument, listSourceDocuments, listSourceDocumentUrls } from "../../src/ingest/documents.js";
import { describeUrlSource } from "../../src/sources/create-source.js";
import { insertSourceUnlessDuplicate } from "../../src/sources/source-repository.js";
import { indexesOf, plansOf } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

describeEachStore("a source's documents' query paths on %s", (kind) => {
  let database: TestDatabase;
  const embedder = new HashingEmbedder();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await embedder.close();
    await database.drop();
  });

  it("happy: the listing, one document with its chunks, and the exclusion each go through their index, in order, scoped to the source", async () => {
    const { db } = database;
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    const workspaceId = ((await runAdminCommand(admin, { command: "workspace.create", name: "Shop" })) as { id: string }).id;
    const agentId = ((await runAdminCommand(admin, { command: "agent.create", workspaceId, name: "Bot", origins: ["https://shop.example"] })) as { id: string }).id;
    const source = (await insertSourceUnlessDuplicate(
      db,
      describeUrlSource({ workspaceId, agentId, kind: "sitemap", url: "https://shop.example/sitemap.xml", schedule: "off", now: new Date() }),
    ))!;
    const other = (await insertSourceUnlessDuplicate(
      db,
      describeUrlSource({ workspaceId, agentId, kind: "sitemap", url: "https://shop.example/other.xml", schedule: "off", now: new Date() }),
    ))!;
    const urls = Array.from({ length: 30 }, (_, i) => `https://shop.example/p/${i}`);
    const ids = await upsertDocuments(db, source, urls);
    await upsertDocuments(db, other, urls);
    const texts = ["Delivery takes two days.", "Returns are free for thirty days."];
    const vectors = await embedder.embed(texts);
    await replaceDocumentChunks(
      db,
      { id: ids[0]!, agentId },
      { title: "Delivery", contentHash: "h", embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: "english", text: texts.join("\n\n"), contentBytes: 1234 },
      texts.map((content, index) => ({ index, title: "Delivery", heading: null, content, tokenEstimate: 8, embedding: vectors[index]! })),
    );

    const expected: [string, (tx: Queryable) => Promise<unknown>][] = [
      ["documents_source_order_idx", (tx) => listSourceDocuments(tx, source.id, { limit: 11, afterId: null })],
      ["documents_source_order_idx", (tx) => listSourceDocuments(tx, source.id, { limit: 11, afterId: ids[10]! })],
      ["documents_pkey|chunks_document_idx|chunks_document_embedder_idx", (tx) => findSourceDocument(tx, source.id, ids[0]!)],
      ["documents_source_order_idx|documents_source_url_idx", (tx) => listSourceDocumentUrls(tx, source.id)],
    ];
    for (const [index, read] of expected) {
      const nodes = await plansOf(db, read, ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"]);
      expect(nodes.map((node) => node["Node Type"]), `${index}: ${indexesOf(nodes).join(", ")}`).not.toContain("Sort");
      expect(nodes.map((node) => node["Node Type"]), index).not.toContain("Seq Scan");
      expect(indexesOf(nodes).some((used) => index.split("|").includes(used)), `${index}: ${indexesOf(nodes).join(", ")}`).toBe(true);
    }
    const oneDocument = await plansOf(db, (tx) => findSourceDocument(tx, source.id, ids[0]!), ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"]);
    // Its chunks by their document: either index that leads with it (migration 0039 added one with the embedder).
    const byDocument = (nodes: Parameters<typeof indexesOf>[0]) => indexesOf(nodes).some((used) => ["chunks_document_idx", "chunks_document_embedder_idx"].includes(used));
    expect(byDocument(oneDocument), indexesOf(oneDocument).join(", ")).toBe(true);
    // The exclusion's statements: the document by its key (or the source's), its chunks by theirs.
    const exclusion = await plansOf(db, (tx) => excludeDocument(tx, source.id, ids[0]!), ["SET LOCAL enable_seqscan = off"]);
    expect(exclusion.map((node) => node["Node Type"])).not.toContain("Seq Scan");
    expect(byDocument(exclusion), indexesOf(exclusion).join(", ")).toBe(true);
    expect(indexesOf(exclusion).some((used) => ["documents_pkey", "documents_source_order_idx"].includes(used)), indexesOf(exclusion).join(", ")).toBe(true);

    // The listing pages in id order; another source's documents never show.
    const first = await listSourceDocuments(db, source.id, { limit: 10, afterId: null });
    const second = await listSourceDocuments(db, source.id, { limit: 10, afterId: first.at(-1)!.id });
    expect([...first, ...second].map((document) => document.id)).toEqual(ids.slice(0, 20));
    expect(await findSourceDocument(db, other.id, ids[0]!)).toBeNull();

    // Excluded: no chunks, kept excluded by a re-sync's upsert and left out of the pages to index; included again, pending.
    await db.transaction((tx) => excludeDocument(tx, source.id, ids[1]!));
    const detail = await findSourceDocument(db, source.id, ids[0]!);
    expect(detail).toMatchObject({ status: "excluded", chunkCount: 0, chunks: [], extractedText: texts.join("\n\n"), contentBytes: 1234 });
    const toIndex = await upsertDocumentsToIndex(db, source, urls);
    expect(toIndex).toHaveLength(28);
    expect(toIndex).not.toContain(ids[0]);
    expect((await findSourceDocument(db, source.id, ids[1]!))?.status).toBe("excluded");
    expect(await db.transaction((tx) => includeDocument(tx, source.id, ids[1]!))).toBe(true);
    expect(await db.transaction((tx) => includeDocument(tx, source.id, ids[2]!))).toBe(false);
    expect((await findSourceDocument(db, source.id, ids[1]!))?.status).toBe("pending");
  });
});
