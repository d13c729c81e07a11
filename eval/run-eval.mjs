#!/usr/bin/env node
// Answer-quality evaluation on two corpora (eval/fixtures: Northwind Bikes, written for Frontdesk;
// eval/govuk: gov.uk pages with ConditionalQA's crowd-written questions, see their READMEs).
// Indexes every page through the real pipeline (extraction workers, chunking, the embedder,
// PGlite with pgvector), then answers every question through the widget's own path (answerTurn:
// its stages up to the extractive generator, read from the turn's trace), asked fresh and one
// after another in one conversation, and prints: expected document cited, cited first, plain BM25's top 5,
// low_confidence precision / recall / F1, out-of-scope questions answered confidently, and how many
// replies state the kind of fact their question asks for (a duration, an amount, a time); then
// retrieval recall per ranking, and the confidence thresholds cross-validated within and across sets.
// EVAL_EMBEDDERS=hashing,local (default): local runs only when its model files are on disk.
import { answerFigures, askedKindFigures, calibrate, figureLine, FIGURE_HEADER, isOdd, lowConfidenceFigures, missBreakdown } from "./answer-quality.mjs";
import { indexPages, loadBuilt as load, loadSets, root } from "./eval-sets.mjs";

const { loadConfig } = await load("config/config.js");
const { openPgliteDatabase } = await load("db/pglite-database.js");
const { migrate } = await load("db/migrate.js");
const { runAdminCommand } = await load("admin/run-admin-command.js");
const { createEmbedder } = await load("embeddings/create-embedder.js");
const { createIngestPipeline } = await load("ingest/ingest-pipeline.js");
const { isConfident } = await load("answering/retrieve/retrieve-hybrid.js");
const { retrievalCalibrationFor } = await load("answering/retrieve/retrieval-calibration.js");
const { createRetrievalCaches } = await load("answering/retrieve/retrieval-caches.js");
const { ExtractiveAnswerGenerator } = await load("answering/generate/extractive-answer-generator.js");
const { askedKindOf, holdsKind } = await load("answering/generate/asked-kind.js");
// HISTORY_TURNS: the last messages of the conversation (visitor and bot) a turn reads, as in the widget.
const { answerTurn, HISTORY_TURNS } = await load("answering/answer-turn.js");
const { stageOf } = await load("answering/turn-trace.js");

const quiet = { info() {}, warn() {} };

async function openEmbedder(kind) {
  const config = loadConfig({ FRONTDESK_LOG_LEVEL: "silent", ...process.env, FRONTDESK_EMBEDDINGS_PROVIDER: kind, FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" });
  const embedder = await createEmbedder(config.embeddings, quiet);
  if (embedder.status().degraded) {
    await embedder.close();
    return { config, embedder: null };
  }
  return { config, embedder };
}

/** Every question of a set, in the order one conversation asks them: an unanswerable one after every few answerable ones. */
function conversationOrder(set) {
  const every = Math.max(1, Math.round(set.answerable.length / Math.max(1, set.unanswerable.length)));
  const order = [];
  let u = 0;
  set.answerable.forEach((item, index) => {
    order.push({ id: item.id, question: item.question, expected: item.expected });
    if ((index + 1) % every === 0 && u < set.unanswerable.length) order.push({ ...set.unanswerable[u++], expected: null });
  });
  while (u < set.unanswerable.length) order.push({ ...set.unanswerable[u++], expected: null });
  return order;
}

async function evaluateEmbedder(kind, sets) {
  const { config, embedder } = await openEmbedder(kind);
  if (!embedder) {
    console.log(`\n${kind}: no model files on this machine (FRONTDESK_EMBEDDINGS_MODEL_DIR / the cache); skipped.`);
    return null;
  }
  const db = await openPgliteDatabase(null);
  await migrate(db);
  const admin = { db, jobs: async () => { throw new Error("no jobs in eval"); } };
  const workspace = await runAdminCommand(admin, { command: "workspace.create", name: "Eval" });
  const pipeline = createIngestPipeline(config, embedder);
  const lexical = createRetrievalCaches({ indexBudgetBytes: process.env.EVAL_LEXICAL_PATH === "sql" ? 0 : 64 * 1024 * 1024 });
  const calibration = retrievalCalibrationFor(embedder.id, config.retrieval);
  const generator = new ExtractiveAnswerGenerator();
  const results = [];

  for (const set of sets) {
    const agent = await runAdminCommand(admin, { command: "agent.create", workspaceId: workspace.id, name: set.name, origins: ["https://eval.test"] });
    const started = Date.now();
    await indexPages(db, pipeline, { id: agent.id, workspaceId: workspace.id }, set.pages);
    const indexMs = Date.now() - started;
    const chunkSlug = new Map(
      (await db.query(`SELECT c.id::int AS id, d.url FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.agent_id = $1`, [agent.id])).rows.map((row) => [
        row.id,
        set.pages.find((page) => page.url === row.url)?.slug,
      ]),
    );
    const documentSlug = new Map(
      (await db.query(`SELECT id::int AS id, url FROM documents WHERE agent_id = $1`, [agent.id])).rows.map((row) => [row.id, set.pages.find((page) => page.url === row.url)?.slug]),
    );
    const slugsOf = (chunkIds) => [...new Set(chunkIds.map((id) => chunkSlug.get(id)).filter(Boolean))];

    const knowledge = { db, embedder, lexical, calibration, generator };
    const agentOfSet = { id: agent.id, language: "en", persona: { name: "Assistant", tone: "friendly" } };

    /** One turn of a visitor, as the widget answers it: its reply and its trace. */
    async function turn(message, history) {
      let text = "";
      let outcome = null;
      for await (const event of answerTurn(knowledge, { agent: agentOfSet, message, history, signal: new AbortController().signal })) {
        if (event.type === "token") text += event.token;
        else if (event.type === "decided") outcome = event;
      }
      return { text, ...outcome };
    }

    /** One question, fresh or within the conversation so far, read from the turn's trace. */
    async function ask(item, history) {
      const { text, decision, trace } = await turn(item.question, history);
      const retrieval = stageOf(trace, "retrieval").retrieval;
      const composition = stageOf(trace, "composition");
      // BM25's top 5 for the question alone: the turn's own retrieval when it had no history.
      const plain = history.length === 0 ? retrieval : stageOf((await turn(item.question, [])).trace, "retrieval").retrieval;
      return {
        id: item.id,
        question: item.question,
        expected: item.expected ?? null,
        kind: item.kind ?? null,
        text,
        cited: composition.citedDocumentIds.map((id) => documentSlug.get(id)),
        lowConfidence: decision.reply.lowConfidence,
        noPassages: retrieval.passages.length === 0,
        signals: retrieval.signals,
        bm25Top5: item.expected ? slugsOf(plain.textRanking).slice(0, 5).includes(item.expected) : false,
        rankings: { hybrid: slugsOf(retrieval.fusedRanking), vector: slugsOf(retrieval.vectorRanking), text: slugsOf(retrieval.textRanking) },
      };
    }

    await turn("warm up", []);
    await lexical.indexes.settled();

    const questions = conversationOrder(set);
    const fresh = [];
    for (const item of questions) fresh.push(await ask(item, []));
    const conversation = [];
    const history = [];
    for (const item of questions) {
      const outcome = await ask(item, history.slice(-HISTORY_TURNS));
      conversation.push(outcome);
      history.push({ role: "visitor", content: item.question }, { role: "bot", content: outcome.text, lowConfidence: outcome.lowConfidence });
    }
    const chunks = chunkSlug.size;
    results.push({ set, fresh, conversation, indexMs, chunks });
  }
  await pipeline.close();
  await embedder.close();
  await db.close();
  return { embedder: embedder.id, calibration, results };
}

/** The thresholds the grid search tries, around the shape of the configured ones. */
function thresholdGrid() {
  const grid = [];
  for (const minSimilarity of [0.3, 0.4, 0.5, 0.6, 0.7, 1.01])
    for (let w = 0; w <= 1.0001; w += 0.25)
      for (let c = 0; c <= 1.0001; c += 0.02)
        for (let u = 0; u <= 1.0001; u += 0.1)
          grid.push({ minSimilarity, coverageWeight: +w.toFixed(2), minCoverage: +c.toFixed(2), maxUnknownShare: +u.toFixed(2) });
  return grid;
}

function retrievalTable(outcomes) {
  const answerable = outcomes.filter((o) => o.expected !== null);
  const lines = [];
  for (const method of ["hybrid", "vector", "text"]) {
    const ranks = answerable.map((o) => o.rankings[method].indexOf(o.expected) + 1);
    const at = (k) => ranks.filter((r) => r >= 1 && r <= k).length / ranks.length;
    const mrr = ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / ranks.length;
    lines.push(`  ${method.padEnd(7)} recall@1 ${at(1).toFixed(3)}  recall@5 ${at(5).toFixed(3)}  MRR ${mrr.toFixed(3)}`);
  }
  return lines.join("\n");
}

const sets = await loadSets(root);
const kinds = (process.env.EVAL_EMBEDDERS ?? "hashing,local").split(",").map((kind) => kind.trim()).filter(Boolean);
console.log(`Frontdesk answer-quality eval — ${new Date().toISOString().slice(0, 10)}`);
for (const set of sets) console.log(`${set.name}: ${set.pages.length} pages, ${set.answerable.length} answerable, ${set.unanswerable.length} unanswerable`);
const runs = [];
for (const kind of kinds) {
  const run = await evaluateEmbedder(kind, sets);
  if (run) runs.push(run);
}
const grid = thresholdGrid();
for (const run of runs) {
  console.log(`\n== ${run.embedder}  thresholds ${JSON.stringify(run.calibration.thresholds)}`);
  for (const r of run.results) {
    console.log(`${r.set.name}: ${r.chunks} chunks, indexed in ${(r.indexMs / 1000).toFixed(1)} s; retrieval (fresh):`);
    console.log(retrievalTable(r.fresh));
  }
  console.log(`\n${FIGURE_HEADER}`);
  for (const r of run.results) {
    for (const [mode, outcomes] of [["fresh", r.fresh], ["conversation", r.conversation]]) {
      const oos = (kind) => {
        const of = outcomes.filter((o) => o.kind === kind);
        return `${kind} ${((100 * of.filter((o) => !o.lowConfidence).length) / of.length).toFixed(1)}`;
      };
      const asked = askedKindFigures(outcomes, askedKindOf, holdsKind);
      console.log(`${figureLine(r.set.name, run.embedder, mode, answerFigures(outcomes))}  (${oos("near")}, ${oos("far")})  asked kind stated ${asked.stated}/${asked.asking}`);
    }
  }
  console.log("\nanswerable questions not cited first, by where they were lost (of the set's answerable questions):");
  for (const r of run.results) {
    for (const [mode, outcomes] of [["fresh", r.fresh], ["conversation", r.conversation]]) {
      const m = missBreakdown(outcomes);
      console.log(`  ${r.set.name.padEnd(10)} ${mode.padEnd(12)} not in top 5 ${m.retrieval}, top 5 but low confidence ${m.confidence}, cited not first ${m.citedNotFirst}, top 5 not cited ${m.notCited} (of ${r.set.answerable.length})`);
    }
  }
  // Cross-validated thresholds: calibrated on one half (or one set), scored on the other.
  console.log("\nlow_confidence F1 with thresholds calibrated elsewhere (fresh questions):");
  const low = (outcomes, t) => lowConfidenceFigures(outcomes, (o) => o.noPassages || !isConfident(o.signals, t));
  for (const r of run.results) {
    const odd = r.fresh.filter(isOdd);
    const even = r.fresh.filter((o) => !isOdd(o));
    const fromOdd = calibrate(odd, grid, isConfident);
    const fromEven = calibrate(even, grid, isConfident);
    const a = low(even, fromOdd);
    const b = low(odd, fromEven);
    console.log(`  ${r.set.name.padEnd(10)} 2-fold: F1 ${a.f1.toFixed(3)} / ${b.f1.toFixed(3)}  (odd→even ${JSON.stringify(fromOdd)}, even→odd ${JSON.stringify(fromEven)})`);
  }
  for (const from of run.results) {
    for (const to of run.results) {
      if (from === to) continue;
      const t = calibrate(from.fresh, grid, isConfident);
      const f = low(to.fresh, t);
      console.log(`  ${from.set.name}→${to.set.name}: F1 ${f.f1.toFixed(3)}  P ${f.precision.toFixed(3)}  R ${f.recall.toFixed(3)}  ${JSON.stringify(t)}`);
    }
  }
  // How the shipped thresholds are chosen: calibrated on both sets' questions together.
  if (run.results.length > 1) {
    const together = calibrate(run.results.flatMap((r) => r.fresh), grid, isConfident);
    const figures = run.results.map((r) => {
      const f = low(r.fresh, together);
      return `${r.set.name} F1 ${f.f1.toFixed(3)} (OOS confident ${(100 * f.outOfScopeConfident).toFixed(1)} %)`;
    });
    console.log(`  both sets together: ${JSON.stringify(together)}  ${figures.join(", ")}`);
  }
  if (process.env.EVAL_DUMP) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(process.env.EVAL_DUMP, JSON.stringify(run.results.map((r) => ({ set: r.set.name, fresh: r.fresh, conversation: r.conversation }))));
  }
  if (process.env.EVAL_VERBOSE) {
    for (const r of run.results) {
      for (const o of r.fresh) {
        const ok = o.expected === null ? o.lowConfidence : o.cited[0] === o.expected;
        if (!ok) console.log(`  ${r.set.name} ${o.id} expected ${o.expected} cited ${o.cited.join(",")} low ${o.lowConfidence} ${JSON.stringify(o.signals)}`);
      }
    }
  }
}
