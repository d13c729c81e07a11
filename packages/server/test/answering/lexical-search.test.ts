import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../src/db/database.js";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import { BM25, inverseDocumentFrequency } from "../../src/answering/retrieve/bm25-parameters.js";
import { candidateSelectingTerms, loadChunkPassages, searchByTextInSql, SQL_MAX_MATCHED_CHUNKS } from "../../src/answering/retrieve/chunk-search-repository.js";
import { searchByText } from "../../src/answering/retrieve/search-by-text.js";
import { createRetrievalCaches, type RetrievalCaches } from "../../src/answering/retrieve/retrieval-caches.js";
import { LexicalIndex, LexicalIndexBuilder } from "../../src/answering/retrieve/lexical-index.js";
import { MOST_PAIRS } from "../../src/answering/retrieve/term-proximity.js";
import { retrievalCalibrationFor } from "../../src/answering/retrieve/retrieval-calibration.js";
import { retrieveHybrid } from "../../src/answering/retrieve/retrieve-hybrid.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { deleteDocumentsNotIn, replaceDocumentChunks, upsertDocuments } from "../../src/ingest/document-repository.js";
import type { IngestPipeline } from "../../src/ingest/ingest-pipeline.js";
import { IngestProgressLog } from "../../src/ingest/ingest-progress-log.js";
import { instanceEmbedderOnly } from "../../src/ingest/embedding-generations/workspace-embedders.js";
import { runReembedDocumentJob } from "../../src/ingest/reembed-document-job.js";
import type { JobQueue } from "../../src/jobs/job-queue.js";
import { unobservedIngestMetrics } from "../../src/observability/ingest-metrics.js";
import { deleteWorkspaceSource, insertSourceUnlessDuplicate } from "../../src/sources/source-repository.js";
import { describeUrlSource } from "../../src/sources/create-source.js";
import { createDomainEvents } from "../../src/events/domain-events.js";
import { pino } from "pino";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { indexesOf, plansOf, scansOf } from "../support/query-plans.js";

const bm25 = (tf: number, length: number, averageLength: number, idf: number) =>
  (idf * tf * (BM25.k1 + 1)) / (tf + BM25.k1 * (1 - BM25.b + (BM25.b * length) / averageLength));

describe("LexicalIndex (exact BM25 in memory)", () => {
  const index = new LexicalIndex([
    { chunkId: 10, length: 4, lexemes: ["deliveri", "free", "order", "day"], frequencies: [3, 1, 1, 1] },
    { chunkId: 11, length: 2, lexemes: ["deliveri", "express"], frequencies: [1, 2] },
    { chunkId: 12, length: 3, lexemes: ["return", "refund", "day"], frequencies: [1, 1, 2] },
  ]);

  it("happy: scores every matching chunk with Okapi BM25 and reports the matched IDF", () => {
    expect(index.chunkCount).toBe(3);
    expect(index.averageLength).toBeCloseTo(3, 12);
    expect(index.documentFrequency("deliveri")).toBe(2);
    expect(index.documentFrequency("unknown")).toBe(0);
    const terms = [
      { lexeme: "deliveri", idf: inverseDocumentFrequency(3, 2) },
      { lexeme: "day", idf: inverseDocumentFrequency(3, 2) },
    ];
    const hits = index.search(terms, 10, BM25);
    const expected = [
      { chunkId: 10, score: bm25(3, 4, 3, terms[0]!.idf) + bm25(1, 4, 3, terms[1]!.idf), matchedIdf: terms[0]!.idf + terms[1]!.idf },
      { chunkId: 12, score: bm25(2, 3, 3, terms[1]!.idf), matchedIdf: terms[1]!.idf },
      { chunkId: 11, score: bm25(1, 2, 3, terms[0]!.idf), matchedIdf: terms[0]!.idf },
    ].sort((a, b) => b.score - a.score);
    expect(hits.map((hit) => hit.chunkId)).toEqual(expected.map((hit) => hit.chunkId));
    hits.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(expected[i]!.score, 12);
      expect(hit.matchedIdf).toBeCloseTo(expected[i]!.matchedIdf, 12);
    });
  });

  it("happy: built in slices with the event loop served between them, an index of 2,600 chunks is the same index", async () => {
    const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i}`);
    const chunks = Array.from({ length: 2600 }, (_, c) => {
      const lexemes = vocabulary.filter((_, i) => (i * 7 + c * 13) % 23 < 3).slice(0, 40);
      return { chunkId: 1000 + c, length: lexemes.length, lexemes, frequencies: lexemes.map((_, i) => 1 + ((i + c) % 3)) };
    });
    let pauses = 0;
    let servedBetween = 0;
    const sliced = await LexicalIndex.build(chunks, async () => {
      pauses += 1;
      // What a pause is for: other work (a request's callbacks) runs before the build goes on.
      await new Promise<void>((resolve) => setImmediate(() => { servedBetween += 1; resolve(); }));
    });
    const whole = new LexicalIndex(chunks);
    expect(pauses).toBeGreaterThanOrEqual(Math.ceil(chunks.length / 200));
    expect(servedBetween).toBe(pauses);
    expect(sliced.chunkCount).toBe(whole.chunkCount);
    expect(sliced.averageLength).toBe(whole.averageLength);
    expect(sliced.byteSize).toBe(whole.byteSize);
    for (const lexeme of ["w0", "w7", "w399"]) expect(sliced.documentFrequency(lexeme)).toBe(whole.documentFrequency(lexeme));
    const terms = [{ lexeme: "w3", idf: 1.2 }, { lexeme: "w50", idf: 2.5, weight: 0.5 }, { lexeme: "w211", idf: 0.7 }];
    expect(sliced.search(terms, 25, BM25)).toEqual(whole.search(terms, 25, BM25));
  });

  it("happy: built from batches as they are read (uneven, one empty), the index is the same as built at once", async () => {
    const vocabulary = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const chunks = Array.from({ length: 1500 }, (_, c) => {
      const lexemes = vocabulary.filter((_, i) => (i * 5 + c * 11) % 19 < 3).slice(0, 30);
      return { chunkId: 10 + 2 * c, length: lexemes.length, lexemes, frequencies: lexemes.map((_, i) => 1 + ((i * c) % 4)) };
    });
    const builder = new LexicalIndexBuilder();
    for (const [start, end] of [[0, 333], [333, 333], [333, 1000], [1000, 1500]] as const) await builder.add(chunks.slice(start, end), async () => undefined);
    const batched = await builder.finish(async () => undefined);
    const whole = new LexicalIndex(chunks);
    expect(batched.chunkCount).toBe(1500);
    expect(batched.averageLength).toBe(whole.averageLength);
    expect(batched.byteSize).toBe(whole.byteSize);
    for (const lexeme of vocabulary) expect(batched.documentFrequency(lexeme)).toBe(whole.documentFrequency(lexeme));
    const terms = [{ lexeme: "w2", idf: 1.1 }, { lexeme: "w77", idf: 2.2, weight: 0.4 }, { lexeme: "w299", idf: 0.9 }];
    expect(batched.search(terms, 40, BM25)).toEqual(whole.search(terms, 40, BM25));
  });

  it("happy: keeps only the best `limit`, breaks ties by the lower chunk id, and starts every search afresh", () => {
    const ties = new LexicalIndex([
      { chunkId: 7, length: 1, lexemes: ["a"], frequencies: [1] },
      { chunkId: 3, length: 1, lexemes: ["a"], frequencies: [1] },
      { chunkId: 5, length: 1, lexemes: ["a"], frequencies: [1] },
    ]);
    const first = ties.search([{ lexeme: "a", idf: 1 }], 2, BM25);
    expect(first.map((hit) => hit.chunkId)).toEqual([3, 5]);
    // The scratch accumulators are cleared: the same search gives the same scores.
    expect(ties.search([{ lexeme: "a", idf: 1 }], 2, BM25)).toEqual(first);
  });

  it("happy: sums each term's second weight (general-English rarity) over the terms a chunk holds", () => {
    const hits = index.search(
      [
        { lexeme: "deliveri", idf: 1, weight: 2 },
        { lexeme: "day", idf: 1, weight: 0.5 },
        { lexeme: "refund", idf: 1 },
      ],
      10,
      BM25,
    );
    expect(Object.fromEntries(hits.map((hit) => [hit.chunkId, hit.matchedWeight]))).toEqual({ 10: 2.5, 11: 2, 12: 0.5 });
  });

  it("edge: a small knowledge base is weighed as if it had 100 chunks, so one unknown word does not outweigh the rest", () => {
    expect(inverseDocumentFrequency(1, 1)).toBeCloseTo(Math.log(1 + 99.5 / 1.5), 12);
    expect(inverseDocumentFrequency(1, 0)).toBeCloseTo(Math.log(1 + 100.5 / 0.5), 12);
    expect(inverseDocumentFrequency(5000, 10)).toBeCloseTo(Math.log(1 + 4990.5 / 10.5), 12);
  });

  it("edge: no matching term, an empty index and a zero limit give no hits", () => {
    expect(index.search([{ lexeme: "kayak", idf: 2 }], 5, BM25)).toEqual([]);
    expect(index.search([{ lexeme: "deliveri", idf: 2 }], 0, BM25)).toEqual([]);
    const empty = new LexicalIndex([]);
    expect(empty.chunkCount).toBe(0);
    expect(empty.search([{ lexeme: "a", idf: 1 }], 5, BM25)).toEqual([]);
  });
});

describe("candidateSelectingTerms (the SQL path's candidates)", () => {
  const terms = [{ lexeme: "kayak", df: 5 }, { lexeme: "battery", df: 400 }, { lexeme: "bike", df: 2000 }, { lexeme: "day", df: 4000 }];

  it("happy: takes every word while their chunks stay within the bound, so SQL scores what the index scores", () => {
    expect(candidateSelectingTerms(terms, 10_000).map((term) => term.lexeme)).toEqual(["kayak", "battery", "bike", "day"]);
  });

  it("edge: past the bound the commonest words only score, and the rarest word always selects", () => {
    expect(candidateSelectingTerms(terms, 3000).map((term) => term.lexeme)).toEqual(["kayak", "battery", "bike"]);
    expect(candidateSelectingTerms([{ lexeme: "day", df: 9000 }, ...terms], 3000, 10_000).map((term) => term.lexeme)).toEqual(["day"]);
    expect(candidateSelectingTerms([], 3000)).toEqual([]);
  });

  it("edge: when even the rarest word is in more chunks than can be ordered per question, no word selects (the vector side's nearest are scored)", () => {
    expect(candidateSelectingTerms([{ lexeme: "day", df: 9000 }, ...terms], 3000, 8000)).toEqual([]);
    expect(candidateSelectingTerms([{ lexeme: "day", df: 8000 }, ...terms], 3000, 8000).map((term) => term.lexeme)).toEqual(["day"]);
    expect(candidateSelectingTerms([{ lexeme: "day", df: SQL_MAX_MATCHED_CHUNKS + 1 }])).toEqual([]);
  });
});

const texts = [
  { title: "Delivery", content: "Standard delivery takes three to five working days. Express delivery arrives the next working day." },
  { title: "Returns", content: "Return any unused bike within 60 days for a full refund. Refunds reach your card in five days." },
  { title: "Battery care", content: "Keep the e-bike battery between 30 and 80 percent charge in winter. A full charge takes four hours." },
  { title: "Warranty", content: "Frames carry a lifetime warranty; batteries and motors two years. Keep your receipt for warranty claims." },
];

describeEachStore("lexical search on %s: the in-memory index and the SQL path", (kind) => {
  let store: TestDatabase;
  let db: Database;
  let agentId: string;
  let otherAgentId: string;
  let documentIds: number[];
  const embedder = new HashingEmbedder();

  async function writeChunks(documentId: number, agent: string, contents: string[], title = "Page"): Promise<void> {
    const vectors = await embedder.embed(contents);
    await db.transaction((tx) =>
      replaceDocumentChunks(
        tx,
        { id: documentId, agentId: agent },
        { title, contentHash: `${documentId}:${contents.join("|")}`, embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: "english" },
        contents.map((content, index) => ({ index, title, heading: null, content, tokenEstimate: 20, embedding: vectors[index]! })),
      ),
    );
  }

  const sourceOfDocument = new Map<number, string>();

  async function newDocument(agent: string, workspaceId: string, slug: string): Promise<number> {
    const url = `https://shop.example/${slug}`;
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId, agentId: agent, kind: "url", url, schedule: "off", now: new Date() }));
    const [id] = await upsertDocuments(db, source!, [url]);
    sourceOfDocument.set(id!, source!.id);
    return id!;
  }

  const revisionOf = async (agent: string) =>
    (await db.query<{ revision: string }>(`SELECT revision::text AS revision FROM knowledge_revisions WHERE agent_id = $1`, [agent])).rows[0]?.revision ?? null;

  const search = (caches: RetrievalCaches, text: string, agent = agentId) =>
    searchByText(db, caches, { agentId: agent, embedder: embedder.id, text, textSearchConfig: "english", limit: 10 });

  /** Searches once to start the build, waits for it, and checks the next search is served from memory. */
  async function warm(caches: RetrievalCaches, agent = agentId): Promise<void> {
    await search(caches, "warm up", agent);
    await caches.indexes.settled();
  }

  /** A new agent beside the others, with one single-chunk page per entry and its in-memory index built: the pages' document and chunk ids, in order. */
  async function agentWithPages(name: string, pages: { slug: string; title: string; content: string }[]) {
    const workspaceId = (await db.query<{ workspace_id: string }>(`SELECT workspace_id FROM agents WHERE id = $1`, [agentId])).rows[0]!.workspace_id;
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    const agent = ((await runAdminCommand(admin, { command: "agent.create", workspaceId, name, origins: ["https://shop.example"] })) as { id: string }).id;
    const documents: number[] = [];
    const chunks: number[] = [];
    for (const page of pages) {
      const document = await newDocument(agent, workspaceId, page.slug);
      await writeChunks(document, agent, [page.content], page.title);
      documents.push(document);
      chunks.push((await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE document_id = $1`, [document])).rows[0]!.id);
    }
    const memory = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024 });
    await warm(memory, agent);
    return { agent, documents, chunks, memory };
  }

  beforeAll(async () => {
    store = await createTestDatabase(kind);
    db = store.db;
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    const workspace = (await runAdminCommand(admin, { command: "workspace.create", name: "Shop" })) as { id: string };
    const agent = (await runAdminCommand(admin, { command: "agent.create", workspaceId: workspace.id, name: "Bot", origins: ["https://shop.example"] })) as { id: string };
    const other = (await runAdminCommand(admin, { command: "agent.create", workspaceId: workspace.id, name: "Other", origins: ["https://shop.example"] })) as { id: string };
    agentId = agent.id;
    otherAgentId = other.id;
    documentIds = [];
    for (const [i, text] of texts.entries()) {
      const id = await newDocument(agentId, workspace.id, `page-${i}`);
      documentIds.push(id);
      await writeChunks(id, agentId, [text.content], text.title);
    }
    const otherDocument = await newDocument(otherAgentId, workspace.id, "other");
    await writeChunks(otherDocument, otherAgentId, ["Delivery to the moon takes three working days by rocket."]);
  });

  afterAll(async () => {
    await embedder.close();
    await store.drop();
  });

  it("happy: every write path moves the agent's knowledge revision in its own transaction, and only that agent's", async () => {
    const workspaceId = (await db.query<{ workspace_id: string }>(`SELECT workspace_id FROM agents WHERE id = $1`, [otherAgentId])).rows[0]!.workspace_id;
    const otherBefore = await revisionOf(otherAgentId);
    const moves = async (agent: string, write: () => Promise<unknown>) => {
      const before = Number(await revisionOf(agent));
      await write();
      return Number(await revisionOf(agent)) > before;
    };
    // Replacing a document's chunks (indexing).
    expect(await moves(agentId, () => writeChunks(documentIds[0]!, agentId, [texts[0]!.content], "Delivery"))).toBe(true);
    expect(await revisionOf(otherAgentId)).toBe(otherBefore);
    // Re-embedding a document made by another embedder.
    await db.query(`UPDATE chunks SET embedder = 'old:embedder' WHERE document_id = $1`, [documentIds[0]!]);
    const logger = pino({ level: "silent" });
    const reembed = { db, pipeline: { embedder, embedders: instanceEmbedderOnly(embedder), metrics: unobservedIngestMetrics } as unknown as IngestPipeline, logger, progress: new IngestProgressLog(logger), jobs: null as unknown as JobQueue, events: createDomainEvents([]) };
    expect(await moves(agentId, () => runReembedDocumentJob(reembed, documentIds[0]!))).toBe(true);
    // Pruning the pages a sitemap no longer lists, and deleting a source.
    const pruned = await newDocument(otherAgentId, workspaceId, "pruned");
    await writeChunks(pruned, otherAgentId, ["A page that the sitemap will drop."]);
    expect(await moves(otherAgentId, () => deleteDocumentsNotIn(db, sourceOfDocument.get(pruned)!, []))).toBe(true);
    const deleted = await newDocument(otherAgentId, workspaceId, "deleted");
    await writeChunks(deleted, otherAgentId, ["A page whose source will be deleted."]);
    expect(await moves(otherAgentId, () => deleteWorkspaceSource(db, workspaceId, sourceOfDocument.get(deleted)!))).toBe(true);
    expect(await db.query(`SELECT 1 FROM chunks WHERE document_id = ANY ($1::bigint[])`, [`{${pruned},${deleted}}`]).then((r) => r.rows)).toEqual([]);
  });

  it("happy: the SQL path ranks exactly as the in-memory index does, long questions included", async () => {
    const sql = createRetrievalCaches({ indexBudgetBytes: 0 });
    const memory = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024 });
    await warm(memory);
    const questions = [
      "How long does express delivery take?",
      "refund for a returned bike",
      "battery warranty years",
      "charge the battery in winter",
      // Its rarest words (receipt, frames, lifetime, motors) are on the warranty page; the page that
      // answers it (returns) holds only commoner ones, which a preselection by the rarest words lost.
      "I kept the receipt, the frames look fine and the motors have a lifetime ahead: can I return the unused bike within 60 days and get a full refund to my card?",
    ];
    for (const question of questions) {
      const hitsBefore = memory.indexes.counts.hits;
      const fromMemory = await search(memory, question);
      expect(memory.indexes.counts.hits).toBe(hitsBefore + 1);
      const fromSql = await search(sql, question);
      expect(fromSql.chunks.length).toBeGreaterThan(0);
      expect(fromSql.chunks.map((chunk) => chunk.chunkId)).toEqual(fromMemory.chunks.map((chunk) => chunk.chunkId));
      fromSql.chunks.forEach((chunk, i) => {
        const same = fromMemory.chunks[i]!;
        expect(same.score).toBeCloseTo(chunk.score, 9);
        expect(same.coverage).toBeCloseTo(chunk.coverage, 9);
        expect(same.rareCoverage).toBeCloseTo(chunk.rareCoverage, 9);
      });
      expect(fromMemory.bestPossible).toBeCloseTo(fromSql.bestPossible, 9);
      expect(fromMemory.pairs).toEqual(fromSql.pairs);
      expect(fromMemory.unknownShare).toBeCloseTo(fromSql.unknownShare, 9);
      expect(fromMemory.unknownRareShare).toBeCloseTo(fromSql.unknownRareShare, 9);
    }
    expect(sql.indexes.counts.hits).toBe(0);
  });

  it("happy: when every question word is in too many chunks to order, the SQL path scores only the vector side's nearest chunks that hold them, as the index scores them", async () => {
    const memory = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024 });
    await warm(memory);
    const question = "battery warranty years";
    const exact = await search(memory, question);
    const [warranty, battery] = [documentIds[3]!, documentIds[2]!];
    const chunkOf = async (document: number) => (await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE document_id = $1`, [document])).rows[0]!.id;
    const nearest = [await chunkOf(warranty), await chunkOf(documentIds[0]!)];
    // The statistics say every word is everywhere: past the bound, no word selects candidates.
    const statistics = await memory.statistics.get(db, agentId, embedder.id);
    expect(exact.chunks.map((chunk) => chunk.chunkId)).toContain(await chunkOf(battery));
    const known = ["batteri", "warranti", "year"].map((lexeme, i) => ({ lexeme, df: SQL_MAX_MATCHED_CHUNKS + 1, idf: 3 - i, weight: 1 }));
    const hits = await searchByTextInSql(db, { agentId, embedder: embedder.id, limit: 10 }, known, statistics.averageLength, nearest);
    // The delivery page holds none of the words: only the warranty page of the two is scored, the battery page is not a candidate.
    expect(hits.map((hit) => hit.chunkId)).toEqual([nearest[0]]);
    expect(hits.map((hit) => hit.chunkId)).not.toContain(await chunkOf(battery));
    expect(await searchByTextInSql(db, { agentId, embedder: embedder.id, limit: 10 }, known, statistics.averageLength, [])).toEqual([]);
    // Another agent's chunk among the nearest is never scored.
    const foreign = (await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE agent_id = $1`, [otherAgentId])).rows[0]!.id;
    expect(await searchByTextInSql(db, { agentId, embedder: embedder.id, limit: 10 }, [{ lexeme: "deliveri", df: SQL_MAX_MATCHED_CHUNKS + 1, idf: 1, weight: 1 }], statistics.averageLength, [foreign])).toEqual([]);
  });

  it("edge: the SQL path's statistics are computed again only once the knowledge has changed (and five minutes have passed)", async () => {
    const { agent, documents } = await agentWithPages("Statistics", [
      { slug: "stats-a", title: "Charging", content: "Charge the battery for four hours before the first ride." },
      { slug: "stats-b", title: "Storage", content: "Store the bike indoors in winter, away from frost." },
    ]);
    let clock = 0;
    const caches = createRetrievalCaches({ indexBudgetBytes: 0, now: () => clock });
    // The warm-up of agentWithPages counted them and stored them: this process reads them.
    expect((await search(caches, "battery charge", agent)).chunks.length).toBe(1);
    expect(caches.statistics.counts.loads).toBe(0);
    clock += 60 * 60_000;
    await search(caches, "battery charge", agent);
    await search(caches, "winter storage", agent);
    expect(caches.statistics.counts.loads).toBe(0);
    await writeChunks(documents[1]!, agent, ["Store the bike indoors in winter; charge its battery monthly."], "Storage");
    // The first search after the change is answered with the statistics it had, while they are computed again.
    await search(caches, "battery charge", agent);
    await vi.waitFor(() => expect(caches.statistics.counts.loads).toBe(1));
    expect((await search(caches, "battery charge", agent)).chunks.length).toBe(2);
    await search(caches, "battery charge", agent);
    expect(caches.statistics.counts.loads).toBe(1);
  });

  it("happy: a process that starts later reads the statistics another stored, without a pass, until the knowledge moves", async () => {
    const { agent, documents, memory: first } = await agentWithPages("Stored statistics", [
      { slug: "kept-a", title: "Charging", content: "Charge the battery for four hours before the first ride; 1042 cycles." },
      { slug: "kept-b", title: "Storage", content: "Store the bike indoors in winter, away from frost." },
    ]);
    // The warm-up was the first process to ask: it counted.
    const computed = await first.statistics.get(db, agent, embedder.id);
    expect(first.statistics.counts.loads).toBe(1);
    // A new process (its own caches): the same statistics, the lexemes in the same order, and no pass over the chunks.
    const later = createRetrievalCaches({ indexBudgetBytes: 0 });
    const stored = await later.statistics.get(db, agent, embedder.id);
    expect(later.statistics.counts.loads).toBe(0);
    expect([...stored.documentFrequency]).toEqual([...computed.documentFrequency]);
    expect({ chunkCount: stored.chunkCount, averageLength: stored.averageLength }).toEqual({ chunkCount: computed.chunkCount, averageLength: computed.averageLength });
    expect((await search(later, "battery charge", agent)).chunks.map((chunk) => chunk.chunkId)).toEqual((await search(first, "battery charge", agent)).chunks.map((chunk) => chunk.chunkId));
    // Once the knowledge moved, the stored copy is stale: the next process counts again, and stores what it counted.
    await writeChunks(documents[1]!, agent, ["Store the bike indoors in winter; charge its battery monthly."], "Storage");
    const after = createRetrievalCaches({ indexBudgetBytes: 0 });
    expect((await after.statistics.get(db, agent, embedder.id)).documentFrequency.get("batteri")).toBe(2);
    expect(after.statistics.counts.loads).toBe(1);
    const next = createRetrievalCaches({ indexBudgetBytes: 0 });
    expect((await next.statistics.get(db, agent, embedder.id)).documentFrequency.get("batteri")).toBe(2);
    expect(next.statistics.counts.loads).toBe(0);
    // A process that counted at an older revision never overwrites a newer copy.
    await db.query(`UPDATE lexeme_statistics SET revision = revision + 100 WHERE agent_id = $1`, [agent]);
    const { rows: before } = await db.query<{ revision: string }>(`SELECT revision::text FROM lexeme_statistics WHERE agent_id = $1`, [agent]);
    const older = createRetrievalCaches({ indexBudgetBytes: 0 });
    await older.statistics.get(db, agent, embedder.id);
    expect(older.statistics.counts.loads).toBe(1);
    const { rows: kept } = await db.query<{ revision: string }>(`SELECT revision::text FROM lexeme_statistics WHERE agent_id = $1`, [agent]);
    expect(kept).toEqual(before);
  });

  it("happy: the SQL path's bounded candidates are read by their ids, without a scan of the chunks", async () => {
    const statistics = await createRetrievalCaches({ indexBudgetBytes: 0 }).statistics.get(db, agentId, embedder.id);
    const known = [{ lexeme: "warranti", df: SQL_MAX_MATCHED_CHUNKS + 1, idf: 1, weight: 1 }];
    const nodes = await plansOf(
      db,
      (tx) => searchByTextInSql(tx, { agentId, embedder: embedder.id, limit: 10 }, known, statistics.averageLength, [1, 2, 3]),
      ["SET LOCAL enable_seqscan = off"],
    );
    expect(scansOf(nodes, ["chunks"])).toEqual([]);
    expect(indexesOf(nodes).some((index) => ["chunks_pkey", "chunks_agent_embedder_id_idx"].includes(index))).toBe(true);
    expect(indexesOf(nodes)).not.toContain("chunks_search_idx");
  });

  it("edge: the piece of a contraction after its apostrophe is not searched, so \"I've\" finds what \"I have\" finds, on both paths", async () => {
    const { agent, chunks, memory } = await agentWithPages("Contractions", [
      { slug: "account", title: "Account help", content: "I've forgotten my password. We'll e-mail you a link, and you're signed in again." },
      { slug: "returns", title: "Returns", content: "Return any unused bike within 60 days for a full refund, or exchange it for another bike." },
    ]);
    const returnsChunk = chunks[1]!;
    for (const caches of [memory, createRetrievalCaches({ indexBudgetBytes: 0 })]) {
      const contracted = await search(caches, "Can I return a bike I’ve bought? You'll refund it, won't you?", agent);
      const spelledOut = await search(caches, "Can I return a bike I have bought? You will refund it, will you not?", agent);
      // "ve", "ll" and "re" would be rare words here: only the account page holds them.
      expect(contracted.chunks.map((chunk) => chunk.chunkId)).toEqual([returnsChunk]);
      expect(contracted).toEqual(spelledOut);
    }
  });

  it("happy: a word the knowledge spells the other way (American or British) is searched as the knowledge spells it, on both paths and through hybrid retrieval", async () => {
    const { agent, documents, chunks, memory } = await agentWithPages("Spellings", [
      { slug: "tyres", title: "Tyre pressure", content: "Road tyres take 80 to 100 psi. Check the pressure of your tyres every week." },
      { slug: "licence", title: "E-bike law", content: "You need no driving licence to ride an e-bike on UK roads, and no insurance." },
    ]);
    const tyres = documents[0]!;
    for (const caches of [memory, createRetrievalCaches({ indexBudgetBytes: 0 })]) {
      const american = await search(caches, "What pressure for road tires?", agent);
      expect(american.chunks[0]?.chunkId).toBe(chunks[0]);
      expect(american.unknownShare).toBe(0);
      // The same chunks with the same BM25 scores as the knowledge's own spelling; the word still weighs as the visitor's spelling does in general English.
      const british = await search(caches, "What pressure for road tyres?", agent);
      expect(american.chunks.map((chunk) => [chunk.chunkId, chunk.score, chunk.coverage])).toEqual(british.chunks.map((chunk) => [chunk.chunkId, chunk.score, chunk.coverage]));
      const license = await search(caches, "Do I need a license to ride an e-bike?", agent);
      expect(license.chunks[0]?.chunkId).toBe(chunks[1]);
      expect(license.unknownShare).toBe(0);
    }
    const hybrid = await retrieveHybrid(db, embedder, memory, { agentId: agent, query: "tires psi", question: "tires psi", textSearchConfig: "english", calibration: retrievalCalibrationFor(embedder.id) });
    expect(hybrid.passages[0]?.documentId).toBe(tyres);
    expect(hybrid.signals.unknownShare).toBe(0);
    // Another language's configuration is left alone: the lists are English.
    const simple = await searchByText(db, createRetrievalCaches({ indexBudgetBytes: 0 }), { agentId: agent, embedder: embedder.id, text: "tires", textSearchConfig: "simple", limit: 10 });
    expect(simple.chunks).toEqual([]);
  });

  it("happy: a passage holding the question's neighbouring words together is ranked above one holding them apart, on both paths", async () => {
    const { agent, documents, chunks, memory } = await agentWithPages("Proximity", [
      { slug: "parcels", title: "Parcels", content: "Weight limits: a parcel's maximum weight is 30 kg. Every rider who collects gets a maximum of two." },
      { slug: "e-bikes", title: "Our e-bikes", content: "The maximum rider weight of our e-bikes is 120 kg, luggage included." },
    ]);
    const question = "What's the maximum rider weight?";
    for (const caches of [memory, createRetrievalCaches({ indexBudgetBytes: 0 })]) {
      const text = await search(caches, question, agent);
      // BM25 alone prefers the page that repeats the words.
      expect(text.chunks.map((chunk) => chunk.chunkId)).toEqual([chunks[0], chunks[1]]);
      // Neighbours: next to each other, or with one word between.
      expect(text.pairs.map((pair) => [pair.first, pair.second].sort().join(" ")).sort()).toEqual(["maximum rider", "maximum weight", "rider weight"]);
      const retrieval = await retrieveHybrid(db, embedder, caches, { agentId: agent, query: question, question, textSearchConfig: "english", calibration: retrievalCalibrationFor(embedder.id) });
      expect(retrieval.textRanking).toEqual([chunks[0], chunks[1]]);
      expect(retrieval.passages.map((passage) => passage.documentId)).toEqual([documents[1], documents[0]]);
    }
    // The proximity term as the passages statement measures it: "maximum rider weight" holds all three pairs; the parcels page holds "maximum weight" 1 apart and none other within 3.
    const { pairs } = await search(memory, question, agent);
    const weightOf = (a: string, b: string) => pairs.find((pair) => [pair.first, pair.second].sort().join(" ") === [a, b].sort().join(" "))!.weight;
    const passages = await loadChunkPassages(db, agent, [chunks[0]!, chunks[1]!], pairs);
    expect(passages.get(chunks[1]!)?.proximity).toBeCloseTo(weightOf("maximum", "rider") + weightOf("rider", "weight") + weightOf("maximum", "weight"), 12);
    expect(passages.get(chunks[0]!)?.proximity).toBeCloseTo(weightOf("maximum", "weight"), 12);
    expect((await loadChunkPassages(db, agent, [chunks[0]!], [])).get(chunks[0]!)?.proximity).toBe(0);
    // Another agent's chunk is not read, whatever its id.
    expect((await loadChunkPassages(db, agentId, [chunks[0]!], pairs)).size).toBe(0);
    // Words the knowledge lacks make no pair; a question of one word makes none.
    // A long message looks for its heaviest pairs only.
    const long = await search(memory, "rider weight maximum parcel kg collects luggage limits rider two weight e-bikes included maximum parcel every rider luggage weight limits kg", agent);
    expect(long.pairs).toHaveLength(MOST_PAIRS);
    expect(long.pairs.map((pair) => pair.weight)).toEqual([...long.pairs.map((pair) => pair.weight)].sort((a, b) => b - a));
    const unknown = await search(memory, "zeppelin weight", agent);
    expect(unknown.pairs).toEqual([]);
    expect((await search(memory, "weight", agent)).pairs).toEqual([]);
  });

  it("security: an agent's index holds only its own chunks", async () => {
    const memory = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024 });
    await warm(memory);
    await warm(memory, otherAgentId);
    const own = (await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE agent_id = $1`, [agentId])).rows.map((row) => row.id);
    const result = await search(memory, "delivery working days rocket moon");
    expect(result.chunks.length).toBeGreaterThan(0);
    for (const chunk of result.chunks) expect(own).toContain(chunk.chunkId);
    const other = await search(memory, "delivery working days rocket moon", otherAgentId);
    expect(other.chunks).toHaveLength(1);
    expect(own).not.toContain(other.chunks[0]!.chunkId);
  });

  it("happy: after the knowledge changes the next search goes to SQL and sees the change at once; the rebuilt index then serves it", async () => {
    let clock = 0;
    const memory = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024, now: () => clock });
    await warm(memory);
    const workspaceId = (await db.query<{ workspace_id: string }>(`SELECT workspace_id FROM agents WHERE id = $1`, [agentId])).rows[0]!.workspace_id;
    const added = await newDocument(agentId, workspaceId, "gift-cards");
    await writeChunks(added, agentId, ["Gift cards are valid for two years and can be spent in every shop."], "Gift cards");
    // Rebuilds are spaced (at least a second apart): past that, the miss starts one.
    clock += 60_000;
    const misses = memory.indexes.counts.misses;
    const fresh = await search(memory, "are gift cards valid");
    expect(memory.indexes.counts.misses).toBe(misses + 1);
    const giftChunk = (await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE document_id = $1`, [added])).rows[0]!.id;
    expect(fresh.chunks[0]!.chunkId).toBe(giftChunk);
    await memory.indexes.settled();
    const hits = memory.indexes.counts.hits;
    const rebuilt = await search(memory, "are gift cards valid");
    expect(memory.indexes.counts.hits).toBe(hits + 1);
    expect(rebuilt.chunks[0]!.chunkId).toBe(giftChunk);
    // Deleting the document takes its chunk out of the answers just as fast.
    await deleteWorkspaceSource(db, workspaceId, sourceOfDocument.get(added)!);
    clock += 60_000;
    const afterDelete = await search(memory, "are gift cards valid");
    expect(afterDelete.chunks.map((chunk) => chunk.chunkId)).not.toContain(giftChunk);
    await memory.indexes.settled();
    const afterRebuild = await search(memory, "are gift cards valid");
    expect(afterRebuild.chunks.map((chunk) => chunk.chunkId)).not.toContain(giftChunk);
    expect(memory.indexes.counts.builds).toBe(3);
  });

  it("edge: while the knowledge keeps changing, rebuilds are spaced rather than run for every question", async () => {
    let clock = 0;
    const memory = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024, now: () => clock });
    await warm(memory);
    await writeChunks(documentIds[1]!, agentId, [texts[1]!.content], "Returns");
    for (let i = 0; i < 5; i += 1) await search(memory, "refund");
    await memory.indexes.settled();
    expect(memory.indexes.counts.builds).toBe(1);
    clock += 60_000;
    await search(memory, "refund");
    await memory.indexes.settled();
    expect(memory.indexes.counts.builds).toBe(2);
    await search(memory, "refund");
    expect(memory.indexes.counts.hits).toBe(1);
  });

  it("edge: knowledge larger than the budget is searched in SQL, and is not rebuilt again and again", async () => {
    const tiny = createRetrievalCaches({ indexBudgetBytes: 16 });
    await warm(tiny);
    const result = await search(tiny, "express delivery");
    expect(result.chunks.length).toBeGreaterThan(0);
    await tiny.indexes.settled();
    await search(tiny, "express delivery");
    expect(tiny.indexes.counts.hits).toBe(0);
    expect(tiny.indexes.counts.builds).toBe(0);
    expect(tiny.indexes.bytes).toBe(0);
  });

  it("edge: past the budget the least recently used agent's index is dropped", async () => {
    const probe = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024 });
    await warm(probe);
    const oneAgent = probe.indexes.bytes;
    await warm(probe, otherAgentId);
    const bothAgents = probe.indexes.bytes;
    expect(bothAgents).toBeGreaterThan(oneAgent);
    const budget = Math.max(oneAgent, bothAgents - oneAgent);
    const caches = createRetrievalCaches({ indexBudgetBytes: budget });
    await warm(caches);
    await warm(caches, otherAgentId);
    expect(caches.indexes.bytes).toBeLessThanOrEqual(budget);
    const hits = caches.indexes.counts.hits;
    await search(caches, "delivery", otherAgentId);
    expect(caches.indexes.counts.hits).toBe(hits + 1);
    const misses = caches.indexes.counts.misses;
    await search(caches, "delivery");
    expect(caches.indexes.counts.misses).toBe(misses + 1);
  });

  it("edge: after close (shutdown) no build starts and searches still answer from SQL", async () => {
    const caches = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024 });
    await caches.indexes.close();
    const result = await search(caches, "express delivery");
    await caches.indexes.settled();
    expect(result.chunks.length).toBeGreaterThan(0);
    expect(caches.indexes.counts.builds).toBe(0);
    expect(caches.indexes.counts.misses).toBe(1);
  });

  it("error: a failed build is reported and searches keep working in SQL", async () => {
    const errors: unknown[] = [];
    const caches = createRetrievalCaches({ indexBudgetBytes: 1024 * 1024, onIndexError: (error) => errors.push(error) });
    const failing: Database = {
      ...db,
      kind: db.kind,
      transaction: (work) => db.transaction(work),
      exec: (sql) => db.exec(sql),
      close: () => Promise.resolve(),
      query: (sql, params) => (sql.includes("array_agg(u.lexeme)") ? Promise.reject(new Error("connection lost")) : db.query(sql, params)),
    };
    const first = await searchByText(failing, caches, { agentId, embedder: embedder.id, text: "express delivery", textSearchConfig: "english", limit: 10 });
    await caches.indexes.settled();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe("connection lost");
    const second = await searchByText(failing, caches, { agentId, embedder: embedder.id, text: "express delivery", textSearchConfig: "english", limit: 10 });
    expect(second.chunks.map((chunk) => chunk.chunkId)).toEqual(first.chunks.map((chunk) => chunk.chunkId));
    expect(first.chunks.length).toBeGreaterThan(0);
    expect(caches.indexes.counts.hits).toBe(0);
  });

  const retrieve = (question: string, query = question) =>
    retrieveHybrid(db, embedder, createRetrievalCaches({ indexBudgetBytes: 0 }), {
      agentId,
      query,
      question,
      textSearchConfig: "english",
      calibration: retrievalCalibrationFor(embedder.id),
    });

  it("happy: a question that stands alone is answered from its own words even when the query carries an earlier message", async () => {
    const question = "How long does a full battery charge take?";
    const alone = await retrieve(question);
    const withEarlier = await retrieve(question, `${question}\nIs there a lifetime warranty on frames?`);
    expect(alone.lowConfidence).toBe(false);
    expect(withEarlier.passages[0]?.documentId).toBe(documentIds[2]);
    expect(withEarlier.signals).toEqual(alone.signals);
  });

  it("happy: each passage says where its chunk stands in its document, for a reply in page order", async () => {
    const documentId = documentIds[0]!;
    await writeChunks(documentId, agentId, ["Lights must be fitted for riding after dark.", "Rear lights are red and front lights white, by law after dark."], "Lights");
    const retrieval = await retrieve("which lights after dark?");
    const lights = retrieval.passages.filter((passage) => passage.documentId === documentId);
    expect(lights.map((passage) => [passage.content.slice(0, 4), passage.chunkIndex]).sort()).toEqual([["Ligh", 0], ["Rear", 1]]);
    await writeChunks(documentId, agentId, [texts[0]!.content], texts[0]!.title);
  });

  it("happy: a follow-up without words of its own is answered with the earlier message", async () => {
    const followUp = await retrieve("and how long?", "and how long?\nIs there a lifetime warranty on frames?");
    expect(followUp.lowConfidence).toBe(false);
    expect(followUp.passages[0]?.documentId).toBe(documentIds[3]);
  });

});
