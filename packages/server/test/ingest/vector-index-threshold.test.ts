import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import { searchByVector, searchByVectorWithLexemes } from "../../src/answering/retrieve/chunk-search-repository.js";
import type { Database } from "../../src/db/database.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { replaceDocumentChunks, upsertDocuments } from "../../src/ingest/document-repository.js";
import { indexAgentVectors, listAgentsWithVectorsToIndex, VECTOR_FLAG_BATCH } from "../../src/ingest/index-agent-vectors.js";
import { VectorIndexUpkeep } from "../../src/ingest/vector-index-upkeep.js";
import { describeUrlSource } from "../../src/sources/create-source.js";
import { insertSourceUnlessDuplicate } from "../../src/sources/source-repository.js";
import { indexesOf, plansOf } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

const TOPICS = ["delivery", "returns", "battery", "warranty", "frames", "brakes", "tyres", "lights", "locks", "saddles", "gears", "chains"];

/** 60 passages (more than one flagging batch) over 12 topics, so that neighbours differ in rank. */
const passages = Array.from({ length: VECTOR_FLAG_BATCH + 10 }, (_, i) => `Guide ${i}: ${TOPICS[i % TOPICS.length]} of model ${i % 7}, part ${1000 + i}, explained for shop ${i % 3}.`);

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(normA * normB);
}

describeEachStore("vectors of large agents only in the HNSW index (migration 0022) on %s", (kind) => {
  let store: TestDatabase;
  let db: Database;
  let agentId: string;
  let smallAgentId: string;
  let workspaceId: string;
  let nextDocument = 0;
  const embedder = new HashingEmbedder();
  const vectors = new Map<number, Float32Array>();

  async function writeDocument(agent: string, contents: string[]): Promise<void> {
    const url = `https://shop.example/page-${(nextDocument += 1)}`;
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId, agentId: agent, kind: "url", url, schedule: "off", now: new Date() }));
    const [documentId] = await upsertDocuments(db, source!, [url]);
    const embedded = await embedder.embed(contents);
    await db.transaction((tx) =>
      replaceDocumentChunks(
        tx,
        { id: documentId!, agentId: agent },
        { title: "Guide", contentHash: url, embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: "english" },
        contents.map((content, index) => ({ index, title: "Guide", heading: null, content, tokenEstimate: 20, embedding: embedded[index]! })),
      ),
    );
    const { rows } = await db.query<{ id: number; chunk_index: number }>(`SELECT id::int AS id, chunk_index FROM chunks WHERE document_id = $1`, [documentId!]);
    for (const row of rows) vectors.set(row.id, embedded[row.chunk_index]!);
  }

  const chunkIdsOf = async (agent: string) =>
    (await db.query<{ id: number }>(`SELECT id::int AS id FROM chunks WHERE agent_id = $1 ORDER BY id`, [agent])).rows.map((row) => row.id);

  const flagsOf = async (agent: string) =>
    (await db.query<{ vector_indexed: boolean }>(`SELECT vector_indexed FROM chunks WHERE agent_id = $1 ORDER BY id`, [agent])).rows.map((row) => row.vector_indexed);

  /** The nearest `limit` of the agent's chunks, computed here over every vector. */
  async function exactNearest(agent: string, question: Float32Array, limit: number): Promise<number[]> {
    const ids = await chunkIdsOf(agent);
    return ids
      .map((id) => ({ id, similarity: cosine(vectors.get(id)!, question) }))
      .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
      .slice(0, limit)
      .map((hit) => hit.id);
  }

  const search = async (agent: string, question: Float32Array, limit = 8) =>
    (await searchByVector(db, { agentId: agent, embedder: embedder.id, vector: question, limit })).map((hit) => hit.chunkId);

  beforeAll(async () => {
    store = await createTestDatabase(kind);
    db = store.db;
    const admin: AdminContext = { db, jobs: () => Promise.reject(new Error("no jobs in this test")), publicUrl: "https://frontdesk.example" };
    const workspace = (await runAdminCommand(admin, { command: "workspace.create", name: "Shop" })) as { id: string };
    workspaceId = workspace.id;
    const agent = (await runAdminCommand(admin, { command: "agent.create", workspaceId, name: "Large", origins: ["https://shop.example"] })) as { id: string };
    const small = (await runAdminCommand(admin, { command: "agent.create", workspaceId, name: "Small", origins: ["https://shop.example"] })) as { id: string };
    agentId = agent.id;
    smallAgentId = small.id;
    for (let start = 0; start < passages.length; start += 4) await writeDocument(agentId, passages.slice(start, start + 4));
    await writeDocument(smallAgentId, ["Delivery of model 3 to shop 1 takes two days.", "Battery warranty of model 5 is two years."]);
  });

  afterAll(async () => {
    await embedder.close();
    await store.drop();
  });

  /** Questions that every passage shares a word with: no two passages tie on similarity 0, whose order no search defines. */
  const questions = ["How long does delivery take for model 3?", "battery warranty part 1042", "brakes of model 6 in shop 2", "guide to gears of model 1 for shop 0"];

  it("happy: below the threshold chunks are inserted outside the index, nothing is promoted, and vector search is exact and scoped to the agent", async () => {
    expect(new Set(await flagsOf(agentId))).toEqual(new Set([false]));
    expect(await indexAgentVectors(db, agentId, { minChunks: passages.length + 1 })).toEqual({ indexed: false, promoted: false, flagged: 0 });
    expect(new Set(await flagsOf(agentId))).toEqual(new Set([false]));
    const smallChunks = new Set(await chunkIdsOf(smallAgentId));
    for (const text of questions) {
      const [question] = await embedder.embed([text]);
      const found = await search(agentId, question!);
      expect(found).toEqual(await exactNearest(agentId, question!, 8));
      expect(found.some((id) => smallChunks.has(id))).toBe(false);
    }
  });

  it("happy: at the threshold the agent is promoted and every chunk enters the index in batches; answers stay the same and the search reads the HNSW index", async () => {
    const answersBefore = [];
    for (const text of questions) answersBefore.push(await search(agentId, (await embedder.embed([text]))[0]!));
    const indexing = await indexAgentVectors(db, agentId, { minChunks: passages.length });
    expect(indexing).toEqual({ indexed: true, promoted: true, flagged: passages.length });
    expect(new Set(await flagsOf(agentId))).toEqual(new Set([true]));
    const { rows } = await db.query<{ promoted: boolean }>(`SELECT vectors_indexed_at IS NOT NULL AS promoted FROM agents WHERE id = $1`, [agentId]);
    expect(rows[0]!.promoted).toBe(true);
    // The small agent is untouched.
    expect(new Set(await flagsOf(smallAgentId))).toEqual(new Set([false]));
    const answersAfter = [];
    for (const text of questions) answersAfter.push(await search(agentId, (await embedder.embed([text]))[0]!));
    expect(answersAfter).toEqual(answersBefore);
    const [question] = await embedder.embed([questions[0]!]);
    const plan = await plansOf(db, (tx) => searchByVector({ ...db, query: tx.query.bind(tx) }, { agentId, embedder: embedder.id, vector: question!, limit: 8 }), ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"]);
    expect(indexesOf(plan)).toContain("chunks_embedding_384_idx");
    // The answer path's round trip (the nearest vectors with the question's lexemes) finds the same chunks through the same index.
    const withLexemes = { agentId, embedder: embedder.id, vector: question!, limit: 8, text: questions[0]!, textSearchConfig: "english" };
    const combined = await searchByVectorWithLexemes(db, withLexemes);
    expect(combined.nearest.map((hit) => hit.chunkId)).toEqual(answersAfter[0]);
    expect(combined.question.lexemes.length).toBeGreaterThan(0);
    const combinedPlan = await plansOf(db, (tx) => searchByVectorWithLexemes({ ...db, query: tx.query.bind(tx) }, withLexemes), ["SET LOCAL enable_seqscan = off", "SET LOCAL enable_sort = off"]);
    expect(indexesOf(combinedPlan)).toContain("chunks_embedding_384_idx");
    // A second call has nothing left to do.
    expect(await indexAgentVectors(db, agentId, { minChunks: passages.length })).toEqual({ indexed: true, promoted: false, flagged: 0 });
  });

  it("happy: a promoted agent's new chunks are inserted into the index; a small agent's are not", async () => {
    await writeDocument(agentId, ["Saddles of model 2 are adjusted in shop 0.", "Chains of model 4 are oiled monthly."]);
    await writeDocument(smallAgentId, ["Returns of model 1 are free."]);
    expect(new Set(await flagsOf(agentId))).toEqual(new Set([true]));
    expect(new Set(await flagsOf(smallAgentId))).toEqual(new Set([false]));
    expect(await indexAgentVectors(db, smallAgentId, { minChunks: 1000 })).toEqual({ indexed: false, promoted: false, flagged: 0 });
  });

  it("edge: chunks of a promoted agent left outside the index (an insert that raced the promotion) are still found, exactly, and the next call flags them", async () => {
    const ids = await chunkIdsOf(agentId);
    const left = ids.filter((_, i) => i % 5 === 0);
    await db.query(`UPDATE chunks SET vector_indexed = false WHERE id = ANY (SELECT (jsonb_array_elements_text($1::jsonb))::bigint)`, [JSON.stringify(left)]);
    for (const text of questions) {
      const [question] = await embedder.embed([text]);
      expect(await search(agentId, question!)).toEqual(await exactNearest(agentId, question!, 8));
    }
    // The nearest chunk of all is one left outside: the exact branch finds it.
    const [outside] = await db.query<{ content: string }>(`SELECT content FROM chunks WHERE id = $1`, [left[3]!]).then((result) => result.rows);
    const [itself] = await embedder.embed([outside!.content]);
    expect((await search(agentId, itself!, 1))[0]).toBe(left[3]);
    expect(await indexAgentVectors(db, agentId, { minChunks: passages.length })).toEqual({ indexed: true, promoted: false, flagged: left.length });
    expect(new Set(await flagsOf(agentId))).toEqual(new Set([true]));
  });

  it("edge: a stopped call ends after its current batch and leaves the rest for the next", async () => {
    const ids = await chunkIdsOf(agentId);
    await db.query(`UPDATE chunks SET vector_indexed = false WHERE agent_id = $1`, [agentId]);
    const stopped = new AbortController();
    stopped.abort();
    expect(await indexAgentVectors(db, agentId, { minChunks: 0 }, stopped.signal)).toEqual({ indexed: true, promoted: false, flagged: VECTOR_FLAG_BATCH });
    expect(await indexAgentVectors(db, agentId, { minChunks: 0 })).toEqual({ indexed: true, promoted: false, flagged: ids.length - VECTOR_FLAG_BATCH });
  });

  it("happy: the upkeep indexes an agent after its knowledge changed, once it has the threshold's chunks", async () => {
    const indexed: string[] = [];
    const errors: unknown[] = [];
    const upkeep = new VectorIndexUpkeep(db, { minChunks: 3 }, (error) => errors.push(error), (agent) => indexed.push(agent), Date.now, 0);
    upkeep.knowledgeChanged(smallAgentId);
    await upkeep.settled();
    expect(indexed).toEqual([smallAgentId]);
    expect(new Set(await flagsOf(smallAgentId))).toEqual(new Set([true]));
    upkeep.knowledgeChanged(smallAgentId);
    await upkeep.settled();
    expect(indexed).toEqual([smallAgentId]);
    expect(errors).toEqual([]);
    await upkeep.close();
  });

  it("happy: workers that start finish the promoted agents a stopped process left with chunks outside the index", async () => {
    await db.query(`UPDATE chunks SET vector_indexed = false WHERE agent_id = $1 AND chunk_index = 0`, [agentId]);
    expect(await listAgentsWithVectorsToIndex(db)).toEqual([agentId]);
    const indexed: string[] = [];
    const upkeep = new VectorIndexUpkeep(db, { minChunks: 1_000_000 }, () => {}, (agent, indexing) => indexed.push(`${agent}:${indexing.flagged}`), Date.now, 0);
    await upkeep.resume();
    await upkeep.settled();
    expect(indexed).toEqual([`${agentId}:${passages.length / 4 + 1}`]);
    expect(new Set(await flagsOf(agentId))).toEqual(new Set([true]));
    expect(await listAgentsWithVectorsToIndex(db)).toEqual([]);
    await upkeep.close();
  });
});

describe("VectorIndexUpkeep", () => {
  it("error: a failing store is reported and the next change is tried again", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const failing = {
      query: () => {
        calls += 1;
        return Promise.reject(new Error("store closed"));
      },
    } as unknown as Database;
    const upkeep = new VectorIndexUpkeep(failing, { minChunks: 10 }, (error) => errors.push(error), () => {}, Date.now, 0);
    await upkeep.resume();
    expect(errors.map((error) => (error as Error).message)).toEqual(["store closed"]);
    errors.length = 0;
    upkeep.knowledgeChanged("agt_1");
    await upkeep.settled();
    expect(errors.map((error) => (error as Error).message)).toEqual(["store closed"]);
    upkeep.knowledgeChanged("agt_1");
    await upkeep.settled();
    expect(calls).toBe(3);
    await upkeep.close();
  });

  it("edge: closing cancels a scheduled run", async () => {
    let calls = 0;
    const counting = { query: () => ((calls += 1), Promise.resolve({ rows: [] })) } as unknown as Database;
    const upkeep = new VectorIndexUpkeep(counting, { minChunks: 10 }, () => {}, () => {}, Date.now, 60_000);
    upkeep.knowledgeChanged("agt_1");
    await upkeep.settled();
    upkeep.knowledgeChanged("agt_2");
    await upkeep.close();
    expect(calls).toBe(1);
  });
});
