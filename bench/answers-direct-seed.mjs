// Benchmark-only seeding for `bench/answers.mjs` (BENCH_SEED=direct): the synthetic articles go
// straight into the store, as the documents of one sitemap source, through the built service's own
// modules (packages/server/dist): the plain-text extractor, the chunker, the hashing embedder, and
// the ingest repositories' writes (`upsertDocuments`, `replaceChunksOfDocuments`, which stores the
// tsvector and the vector and moves the knowledge revision, `promoteAgentToVectorIndex`,
// `setSourceOutcome`). No HTTP, no job queue, no per-document transaction: 100,000 chunks through
// the Sources API took 12 minutes; this path writes many documents per transaction.
//
// One step is SQL of the bench's own (`rebuildIndexes`): on Postgres, for a large seed, the chunks'
// HNSW and GIN indexes are dropped before the bulk insert and built again after it with their own
// definitions (read from pg_indexes, so they stay the migrations'). Inserting a million vectors one
// by one into an HNSW graph costs far more than building it once; the service has no bulk load (a
// real site's pages arrive over hours), so this belongs to the bench, not to a repository.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { log } from "./answers-service.mjs";

/** Chunks written per transaction (`replaceChunksOfDocuments` inserts them 200 rows per statement). */
const CHUNKS_PER_TRANSACTION = 2000;
/** Seeds of at least this many chunks drop and rebuild the chunks' HNSW and GIN indexes (Postgres). */
const REBUILD_INDEXES_FROM = 50_000;
const REBUILT_INDEXES = ["chunks_embedding_384_idx", "chunks_search_idx"];

async function serverModules(root) {
  const dist = join(root, "packages", "server", "dist");
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const [extract, chunk, embeddingText, hashing, documents, replace, sources, createSource, agents, contentHash, language, openDb, planner] = await Promise.all([
    load("ingest/extract/extract-plain-text.js"),
    load("ingest/chunk/chunk-document.js"),
    load("ingest/chunk/chunk-embedding-text.js"),
    load("embeddings/hashing-embedder.js"),
    load("ingest/document-repository.js"),
    load("ingest/replace-chunks-of-documents.js"),
    load("sources/source-repository.js"),
    load("sources/create-source.js"),
    load("tenants/agents.js"),
    load("ingest/content-hash.js"),
    load("language/text-search-config.js"),
    load("db/open-database.js"),
    load("ingest/planner-statistics.js"),
  ]);
  return {
    extractPlainText: extract.extractPlainText,
    chunkDocument: chunk.chunkDocument,
    chunkEmbeddingText: embeddingText.chunkEmbeddingText,
    HashingEmbedder: hashing.HashingEmbedder,
    upsertDocuments: documents.upsertDocuments,
    findDocument: documents.findDocument,
    replaceChunksOfDocuments: replace.replaceChunksOfDocuments,
    insertSourceUnlessDuplicate: sources.insertSourceUnlessDuplicate,
    setSourceOutcome: sources.setSourceOutcome,
    describeUrlSource: createSource.describeUrlSource,
    promoteAgentToVectorIndex: agents.promoteAgentToVectorIndex,
    sha256Hex: contentHash.sha256Hex,
    textSearchConfigFor: language.textSearchConfigFor,
    openDatabase: openDb.openDatabase,
    PlannerStatistics: planner.PlannerStatistics,
  };
}

/** The store as the service opens it, from the bench's service environment. */
function storeOf(env) {
  return env.FRONTDESK_DATABASE_URL ? { kind: "postgres", url: env.FRONTDESK_DATABASE_URL, poolSize: 4 } : { kind: "pglite", dataDir: env.FRONTDESK_DATA_DIR, sharedBuffersMb: 128 };
}

async function rebuildIndexes(db, work) {
  const { rows } = await db.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexname = ANY ($1::text[])`, [`{${REBUILT_INDEXES.join(",")}}`]);
  for (const row of rows) await db.query(`DROP INDEX ${row.indexname}`);
  await work();
  const started = performance.now();
  for (const row of rows) {
    await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL maintenance_work_mem = '4GB'`);
      await tx.query(`SET LOCAL max_parallel_maintenance_workers = 2`);
      await tx.query(row.indexdef);
    });
  }
  return Math.round((performance.now() - started) / 100) / 10;
}

/**
 * Seeds `corpus` for the agent (`agentId`, of `workspaceId`) in the store of `env` while no
 * service runs on it. Returns the seconds spent, and those of the index rebuild when there was one.
 */
export async function seedDirect({ root, env, workspaceId, agentId, corpus }) {
  const modules = await serverModules(root);
  const store = storeOf(env);
  const db = await modules.openDatabase(store);
  const embedder = new modules.HashingEmbedder({ workerCount: 2 });
  const started = performance.now();
  let rebuildSeconds = null;
  try {
    // Promoted first (threshold 0): every chunk is inserted flagged, as the service inserts them for an indexed agent.
    await modules.promoteAgentToVectorIndex(db, agentId, 0);
    const description = modules.describeUrlSource({ workspaceId, agentId, kind: "sitemap", url: "https://bench.test/sitemap.xml", schedule: "off", now: new Date() });
    const source = await modules.insertSourceUnlessDuplicate(db, description);
    const documentIds = await modules.upsertDocuments(db, source, corpus.documents.map((document) => document.sourceUrl));
    const first = await modules.findDocument(db, documentIds[0]);
    const meta = { embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: modules.textSearchConfigFor(first.languageDefault) };
    const expected = corpus.chunks;

    const seedAll = async () => {
      let written = 0;
      let batch = [];
      let batchChunks = 0;
      let nextLog = Math.ceil(expected / 10);
      const flush = async () => {
        if (batch.length === 0) return;
        const documents = batch;
        batch = [];
        batchChunks = 0;
        const texts = documents.flatMap((document) => document.prepared.map((chunk) => modules.chunkEmbeddingText(chunk)));
        const vectors = await embedder.embed(texts);
        let at = 0;
        const given = documents.map((document) => ({
          id: document.id,
          title: document.title,
          contentHash: document.contentHash,
          text: document.text,
          contentBytes: document.contentBytes,
          chunks: document.prepared.map((chunk) => ({
            index: chunk.index,
            title: chunk.title,
            heading: chunk.heading,
            content: chunk.text,
            tokenEstimate: chunk.tokenEstimate,
            embedding: vectors[at++],
            page: chunk.page ?? null,
          })),
        }));
        await db.transaction((tx) => modules.replaceChunksOfDocuments(tx, agentId, meta, given));
        written += texts.length;
        if (written >= nextLog) {
          log(`seeded ${written}/${expected} chunks (${Math.round((performance.now() - started) / 1000)} s)`);
          nextLog += Math.ceil(expected / 10);
        }
      };
      for (const [index, article] of corpus.documents.entries()) {
        const extracted = modules.extractPlainText({ body: article.content, contentType: "text/plain", url: article.sourceUrl, title: article.title });
        const prepared = modules.chunkDocument(extracted);
        batch.push({
          id: documentIds[index],
          title: extracted.title,
          text: extracted.text,
          contentBytes: Buffer.byteLength(article.content, "utf8"),
          contentHash: await modules.sha256Hex(`${extracted.title}\n\n${extracted.text}`),
          prepared,
        });
        batchChunks += prepared.length;
        if (batchChunks >= CHUNKS_PER_TRANSACTION) await flush();
      }
      await flush();
      return written;
    };

    const rebuild = store.kind === "postgres" && expected >= REBUILD_INDEXES_FROM;
    if (rebuild) rebuildSeconds = await rebuildIndexes(db, seedAll);
    else await seedAll();
    await modules.setSourceOutcome(db, source.id, { status: "indexed" });
    // What the ingest workers do after the knowledge changed (ANALYZE of the knowledge tables): PGlite
    // has no autovacuum, and without the statistics the planner scans every chunk instead of the indexes.
    let failure = null;
    const planner = new modules.PlannerStatistics(db, (error) => {
      failure = error;
    });
    planner.knowledgeChanged();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await planner.close();
    if (failure) throw failure;
  } finally {
    await embedder.close?.();
    await db.close();
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return { seconds, rebuildSeconds };
}
