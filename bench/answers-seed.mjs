// Seeding for `bench/answers.mjs`: the synthetic articles, sized with the service's own chunker,
// and the workspace, agent and token that receive them through the Sources API (BENCH_SEED=api;
// answers-direct-seed.mjs writes them straight into the store).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateCorpus } from "./answers-corpus.mjs";
import { BenchFailure, log, runAdmin, sleep, sourcesClient } from "./answers-service.mjs";

const PUSH_CONCURRENCY = 4;
const POLL_MS = 1000;
const TIMEOUT_MS = 30 * 60_000;

/** The articles, sized with the chunker of the service under test so the store gets the count asked for. */
export async function buildCorpus({ root, chunks, articles }) {
  const dist = join(root, "packages", "server", "dist", "ingest");
  const { chunkDocument } = await import(pathToFileURL(join(dist, "chunk", "chunk-document.js")).href);
  const { extractPlainText } = await import(pathToFileURL(join(dist, "extract", "extract-plain-text.js")).href);
  const chunkCount = (article) => chunkDocument(extractPlainText({ body: article.content, contentType: "text/plain", url: article.sourceUrl, title: article.title })).length;
  const started = performance.now();
  const corpus = generateCorpus({ targetChunks: chunks, articles, chunkCount });
  const words = corpus.documents.map((document) => document.content.split(/\s+/).length);
  // Word by word into the set: one array of every word of a million chunks is past V8's array length.
  const vocabulary = new Set();
  for (const document of corpus.documents) for (const word of document.content.toLowerCase().match(/[a-z]+/g) ?? []) vocabulary.add(word);
  log(`corpus: ${corpus.documents.length} articles, ${corpus.chunks} chunks expected, ${vocabulary.size} distinct words (${Math.round(performance.now() - started)} ms)`);
  return {
    ...corpus,
    stats: {
      articles: corpus.documents.length,
      expectedChunks: corpus.chunks,
      words: words.reduce((sum, value) => sum + value, 0),
      meanWordsPerArticle: Math.round(words.reduce((sum, value) => sum + value, 0) / words.length),
      distinctWords: vocabulary.size,
    },
  };
}

async function eachAtMost(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        await work(items[index], index);
      }
    }),
  );
}

/** The workspace and agent that receive the articles (with the admin CLI, on a migrated store). */
export async function createAgent({ root, env }) {
  const workspace = await runAdmin(root, env, ["workspace", "create", "--name", "B"]);
  const agent = await runAdmin(root, env, ["agent", "create", "--workspace", workspace.id, "--name", "B", "--origin", "https://bench.test"]);
  return { workspaceId: workspace.id, agentId: agent.id };
}

/** Creates the workspace, agent and token, pushes every article, and waits until all are indexed. */
export async function seed({ root, service, env, corpus }) {
  const { workspaceId, agentId } = await createAgent({ root, env });
  const agent = { id: agentId };
  const token = await runAdmin(root, env, ["token", "create", "--workspace", workspaceId, "--name", "b"]);
  const client = sourcesClient(service.baseUrl, token.token);

  const started = performance.now();
  const sourceIds = [];
  await eachAtMost(corpus.documents, PUSH_CONCURRENCY, async (document, index) => {
    const source = await client.push({ agent_id: agent.id, kind: "text", title: document.title, content: document.content, source_url: document.sourceUrl });
    sourceIds[index] = source.id;
    if ((index + 1) % 250 === 0) log(`pushed ${index + 1}/${corpus.documents.length}`);
  });
  const pushedMs = performance.now() - started;

  let pending = [...sourceIds];
  const failed = [];
  while (pending.length > 0) {
    if (performance.now() - started > TIMEOUT_MS) throw new BenchFailure(`${pending.length} sources still pending after ${TIMEOUT_MS / 60_000} min`);
    await sleep(POLL_MS);
    const stillPending = [];
    await eachAtMost(pending, 8, async (id) => {
      const source = await client.get(id);
      if (source.status === "pending") stillPending.push(id);
      else if (source.status === "failed") failed.push({ id, error: source.error });
    });
    const step = Math.ceil(sourceIds.length / 5);
    if (Math.floor((sourceIds.length - stillPending.length) / step) > Math.floor((sourceIds.length - pending.length) / step) || stillPending.length === 0) {
      log(`indexed ${sourceIds.length - stillPending.length}/${sourceIds.length}`);
    }
    pending = stillPending;
  }
  if (failed.length > 0) throw new BenchFailure(`${failed.length} sources failed, e.g. ${JSON.stringify(failed[0])}`);
  return { workspaceId, agentId: agent.id, pushSeconds: Math.round(pushedMs / 100) / 10, indexSeconds: Math.round((performance.now() - started) / 100) / 10 };
}
