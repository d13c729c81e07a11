#!/usr/bin/env node
// Exact vector search against the HNSW index on one PGlite store: `node bench/vector-index-promotion.mjs <data dir>/pglite`
// (see docs/benchmarks.md, section "Ingest"). Takes a store `BENCH_KEEP_DATA=1 node bench/ingest.mjs`
// kept (one agent under FRONTDESK_VECTOR_INDEX_MIN_CHUNKS, its chunks outside the index), times
// `searchByVector` for 8 questions × 5 rounds (limit 20, as retrieval asks), promotes the agent
// (`indexAgentVectors`, 50 chunks per statement, timed: the index work a sitemap defers), times the
// same searches through the index, and compares the two result lists. Changes the store it is given.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, "packages/server/dist");
const dataDir = process.argv[2];
if (!dataDir || !existsSync(dataDir)) {
  process.stderr.write("usage: node bench/vector-index-promotion.mjs <PGlite data dir> (run `npm run build` first)\n");
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { openPgliteDatabase } = await load("db/pglite-database.js");
const { searchByVector } = await load("answering/retrieve/chunk-search-repository.js");
const { indexAgentVectors } = await load("ingest/index-agent-vectors.js");
const { HashingEmbedder } = await load("embeddings/hashing-embedder.js");

const db = await openPgliteDatabase(dataDir);
const embedder = new HashingEmbedder();
try {
  const { rows } = await db.query(
    `SELECT agent_id, embedder, count(*)::int AS chunks, count(*) FILTER (WHERE vector_indexed)::int AS indexed FROM chunks GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`,
  );
  const agent = rows[0];
  if (!agent) throw new Error("the store holds no chunks");
  console.log(`agent ${agent.agent_id}: ${agent.chunks} chunks of ${agent.embedder}, ${agent.indexed} in the HNSW index`);
  const questions = [
    "How do I return a product?", "What are your delivery times?", "Which warranty covers the battery?", "Can I pay by invoice?",
    "Where is the nearest store?", "How do I reset my password?", "Do you ship abroad?", "What does express shipping cost?",
  ];
  const vectors = await embedder.embed(questions);
  const search = (vector) => searchByVector(db, { agentId: agent.agent_id, embedder: agent.embedder, vector, limit: 20 });
  async function time(label) {
    const lists = [];
    for (const vector of vectors) lists.push((await search(vector)).map((hit) => hit.chunkId));
    const samples = [];
    for (let round = 0; round < 5; round += 1) {
      for (const vector of vectors) {
        const started = performance.now();
        await search(vector);
        samples.push(performance.now() - started);
      }
    }
    samples.sort((a, b) => a - b);
    console.log(`${label}: median ${samples[Math.floor(samples.length / 2)].toFixed(1)} ms, p90 ${samples[Math.floor(samples.length * 0.9)].toFixed(1)} ms (${samples.length} searches)`);
    return lists;
  }
  const before = await time("before the promotion");
  const started = performance.now();
  const indexing = await indexAgentVectors(db, agent.agent_id, 0);
  console.log(`promotion: ${indexing.flagged} chunks put into the index in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const after = await time("through the HNSW index");
  const identical = before.filter((list, i) => JSON.stringify(list) === JSON.stringify(after[i])).length;
  const overlap = before.reduce((sum, list, i) => sum + after[i].filter((id) => list.includes(id)).length / Math.max(1, list.length), 0) / before.length;
  console.log(`identical top-20 lists: ${identical}/${before.length}; mean overlap ${(overlap * 100).toFixed(1)} %`);
} finally {
  await embedder.close();
  await db.close();
}
