#!/usr/bin/env node
// Where one question's retrieval spends its time on a seeded store: `node bench/answers-explain.mjs`
// with BENCH_EXPLAIN_URL set to a database kept by `BENCH_KEEP_DATABASE=1 node bench/answers.mjs`.
// Runs the retrieval of BENCH_QUESTIONS (5) of the bench's questions through the built service's
// own functions (packages/server/dist), every statement under EXPLAIN (ANALYZE, BUFFERS), and prints
// each statement's plan and time, then each question's time per stage without EXPLAIN: the question's
// lexemes and vector search, the lexeme statistics (first load), the lexical search in SQL, and the
// passage read. Environment: BENCH_EXPLAIN_URL (required), BENCH_QUESTIONS, BENCH_EXPLAIN_PLANS=0
// (times only).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { questionStream } from "./answers-corpus.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const load = (path) => import(pathToFileURL(join(root, "packages/server/dist", path)).href);
const { openPostgresDatabase } = await load("db/postgres-database.js");
const { HashingEmbedder } = await load("embeddings/hashing-embedder.js");
const repository = await load("answering/retrieve/chunk-search-repository.js");
const { searchByText } = await load("answering/retrieve/search-by-text.js");
const { createRetrievalCaches } = await load("answering/retrieve/retrieval-caches.js");

const url = process.env.BENCH_EXPLAIN_URL;
if (!url) throw new Error("BENCH_EXPLAIN_URL: a database kept by BENCH_KEEP_DATABASE=1 node bench/answers.mjs");
const questionCount = Number(process.env.BENCH_QUESTIONS ?? 5);
const printPlans = process.env.BENCH_EXPLAIN_PLANS !== "0";

const db = await openPostgresDatabase(url, 2);
const embedder = new HashingEmbedder();

/** The store, every statement of which is first run under EXPLAIN (ANALYZE, BUFFERS) and printed. */
const explaining = {
  ...db,
  kind: db.kind,
  async query(sql, params) {
    const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    process.stdout.write(`\n--- ${sql.replace(/\s+/g, " ").slice(0, 160)}…\n${plan}\n`);
    return db.query(sql, params);
  },
  transaction: (work) => db.transaction(work),
};

const time = async (work) => {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round((performance.now() - started) * 10) / 10 };
};

try {
  const { rows: agents } = await db.query(`SELECT agent_id, embedder, count(*)::int AS chunks FROM chunks GROUP BY agent_id, embedder ORDER BY chunks DESC LIMIT 1`);
  const { agent_id: agentId, embedder: embedderId, chunks } = agents[0];
  process.stdout.write(`agent ${agentId}: ${chunks} chunks of ${embedderId}\n`);
  // The in-memory index is off (budget 0): this is the path of an agent past the budget.
  const caches = createRetrievalCaches({ indexBudgetBytes: 0 });
  const statistics = await time(() => caches.statistics.get(db, agentId, embedderId));
  process.stdout.write(`lexeme statistics (ts_stat over the agent's chunks): ${statistics.ms} ms, ${statistics.value.documentFrequency.size} lexemes\n`);
  const questions = questionStream(2026);
  for (let i = 0; i < questionCount; i += 1) {
    const text = questions.next();
    const [vector] = await embedder.embed([text]);
    const search = { agentId, embedder: embedderId, limit: 20, text, textSearchConfig: "english" };
    const store = printPlans ? explaining : db;
    if (printPlans) process.stdout.write(`\n===== ${text}\n`);
    const nearest = await time(() => repository.searchByVectorWithLexemes(store, { ...search, vector }));
    const lexical = await time(() => searchByText(store, caches, search, nearest.value.question, nearest.value.nearest.map((chunk) => chunk.chunkId)));
    const ids = [...new Set([...nearest.value.nearest, ...lexical.value.chunks].map((chunk) => chunk.chunkId))];
    const passages = await time(() => repository.loadChunkPassages(store, agentId, ids, lexical.value.pairs));
    process.stdout.write(
      `question ${i + 1}: vector+lexemes ${nearest.ms} ms, lexical SQL ${lexical.ms} ms (${lexical.value.chunks.length} hits), passages ${passages.ms} ms (${ids.length})${printPlans ? " (with EXPLAIN ANALYZE)" : ""}\n`,
    );
  }
} finally {
  await embedder.close();
  await db.close();
}
