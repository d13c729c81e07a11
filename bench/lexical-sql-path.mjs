#!/usr/bin/env node
// The SQL lexical path on a large agent (the path an agent takes when its in-memory index does not
// fit the budget, or while it is rebuilt): `node bench/lexical-sql-path.mjs` after `npm run build`.
// Writes BENCH_CHUNKS (20,000) chunks of bench/answers' synthetic support articles into a scratch
// Postgres database, then asks BENCH_QUESTIONS (60) questions, a third of them long (three
// questions in one message, as a visitor who tells a story first), through the SQL path and
// through the in-memory index, and prints the SQL path's time (p50 / p90 / max) and how often its
// top 10 equals the index's (the in-memory index scores every matching chunk exactly).
// Environment: BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_CHUNKS, BENCH_QUESTIONS.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { questionStream, seededRandom, supportArticle } from "./answers-corpus.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, "packages/server/dist");
if (!existsSync(join(dist, "app.js"))) throw new Error("Build first: npm run build");
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { openPostgresDatabase } = await load("db/postgres-database.js");
const { migrate } = await load("db/migrate.js");
const { runAdminCommand } = await load("admin/run-admin-command.js");
const { replaceDocumentChunks, upsertDocuments } = await load("ingest/document-repository.js");
const { insertSourceUnlessDuplicate } = await load("sources/source-repository.js");
const { describeUrlSource } = await load("sources/create-source.js");
const { searchByText } = await load("answering/retrieve/search-by-text.js");
const { createRetrievalCaches } = await load("answering/retrieve/retrieval-caches.js");

const adminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const chunkTarget = Number(process.env.BENCH_CHUNKS ?? 20_000);
const questionCount = Number(process.env.BENCH_QUESTIONS ?? 60);
const embedder = "bench:lexical:4";
const name = `frontdesk_bench_lexical_${process.pid}`;

const admin = await openPostgresDatabase(adminUrl, 1);
await admin.query(`CREATE DATABASE ${name}`);
const db = await openPostgresDatabase(adminUrl.replace(/\/[^/]*$/, `/${name}`), 2);
try {
  await migrate(db);
  const context = { db, jobs: async () => { throw new Error("no jobs in this bench"); } };
  const workspace = await runAdminCommand(context, { command: "workspace.create", name: "Bench" });
  const agent = await runAdminCommand(context, { command: "agent.create", workspaceId: workspace.id, name: "Large", origins: ["https://bench.test"] });
  const random = seededRandom(7);
  const vector = [1, 0, 0, 0];
  const started = Date.now();
  for (let index = 0, written = 0; written < chunkTarget; index += 1) {
    const article = supportArticle(random, index, 8);
    const paragraphs = article.content.split("\n\n");
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId: workspace.id, agentId: agent.id, kind: "url", url: article.sourceUrl, schedule: "off", now: new Date() }));
    const [documentId] = await upsertDocuments(db, source, [article.sourceUrl]);
    // Two paragraphs a chunk, as the chunker makes of these articles.
    const chunks = [];
    for (let p = 0; p < paragraphs.length; p += 2) chunks.push(paragraphs.slice(p, p + 2).join("\n\n"));
    await db.transaction((tx) =>
      replaceDocumentChunks(
        tx,
        { id: documentId, agentId: agent.id },
        { title: article.title, contentHash: String(index), embedder, dimensions: 4, textSearchConfig: "english" },
        chunks.map((content, i) => ({ index: i, title: article.title, heading: null, content, tokenEstimate: 300, embedding: vector })),
      ),
    );
    written += chunks.length;
  }
  await db.query(`ANALYZE chunks`);
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM chunks WHERE agent_id = $1`, [agent.id]);
  console.log(`${rows[0].n} chunks written in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  const stream = questionStream(11);
  const questions = Array.from({ length: questionCount }, (_, i) => (i % 3 === 2 ? `${stream.next()} ${stream.next()} ${stream.next()}` : stream.next()));
  const sql = createRetrievalCaches({ indexBudgetBytes: 0 });
  const memory = createRetrievalCaches({ indexBudgetBytes: 512 * 1024 * 1024 });
  const search = (caches, text) => searchByText(db, caches, { agentId: agent.id, embedder, text, textSearchConfig: "english", limit: 10 });
  await search(sql, "warm up");
  await search(memory, "warm up");
  await memory.indexes.settled();
  const times = [];
  let same = 0;
  let sameFirst = 0;
  for (const question of questions) {
    const at = performance.now();
    const fromSql = await search(sql, question);
    times.push(performance.now() - at);
    const fromMemory = await search(memory, question);
    const ids = (result) => result.chunks.map((chunk) => chunk.chunkId).join(",");
    if (ids(fromSql) === ids(fromMemory)) same += 1;
    if (fromSql.chunks[0]?.chunkId === fromMemory.chunks[0]?.chunkId) sameFirst += 1;
  }
  if (memory.indexes.counts.hits < questions.length) throw new Error("the in-memory index did not serve every question");
  times.sort((a, b) => a - b);
  const quantile = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`SQL path, ${questions.length} questions (a third long): p50 ${quantile(0.5)} ms, p90 ${quantile(0.9)} ms, max ${times.at(-1).toFixed(1)} ms`);
  console.log(`same top 10 as the in-memory index: ${same} of ${questions.length}; same first chunk: ${sameFirst}`);
} finally {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
}
