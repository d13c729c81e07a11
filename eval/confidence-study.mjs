#!/usr/bin/env node
// Which signals separate answerable from out-of-scope questions, and which document rankings find
// the expected page, on both eval sets (the measurements behind docs/benchmarks.md, "Answer
// quality"). Indexes both sets through the real pipeline with the hashing embedder, then scores
// every question's words against the indexed chunks (the same Okapi BM25 as the lexical index) and
// prints, per set: each signal's AUC (answerable against out-of-scope, near and far), logistic
// regressions over combinations of signals calibrated on one set and scored on the other (and
// 2-fold within a set), and recall@1/3/5 of document rankings. Nothing here is shipped: a signal
// earns a place in confidence/ only when it holds on both sets here and then in `npm run eval`.
import { isOdd, lowConfidenceFigures } from "./answer-quality.mjs";
import { indexPages, loadBuilt as load, loadSets, root } from "./eval-sets.mjs";

const { loadConfig } = await load("config/config.js");
const { openPgliteDatabase } = await load("db/pglite-database.js");
const { migrate } = await load("db/migrate.js");
const { runAdminCommand } = await load("admin/run-admin-command.js");
const { createEmbedder } = await load("embeddings/create-embedder.js");
const { createIngestPipeline } = await load("ingest/ingest-pipeline.js");
const { readIndexedChunks, searchByVector } = await load("answering/retrieve/chunk-search-repository.js");
const { BM25, inverseDocumentFrequency } = await load("answering/retrieve/bm25-parameters.js");
const { lexemeWeights } = await load("answering/confidence/general-english-rarity.js");
const { MOST_PAIRS, QUESTION_PAIR_SPAN, PASSAGE_PAIR_SPAN } = await load("answering/retrieve/term-proximity.js");

/** The proximity term of a chunk, as the passages statement measures it in SQL (term-proximity.ts). */
const proximityBonus = (positions, pairs) =>
  sum(pairs.filter((pair) => (positions.get(pair.first) ?? []).some((x) => (positions.get(pair.second) ?? []).some((y) => x !== y && Math.abs(x - y) <= PASSAGE_PAIR_SPAN))), (pair) => pair.weight);

/** Each lexeme's positions in a tsvector, as `unnest` gives them. */
const positionsOf = (rows) => new Map(rows.map((row) => [row.lexeme, (Array.isArray(row.positions) ? row.positions : String(row.positions).replace(/[{}]/g, "").split(",")).map(Number)]));

/** Both sets indexed; per set its chunks (lexemes, weighted term frequencies, page) and questions (lexemes, rarity weights, nearest cosine). */
async function indexSets(sets) {
  const config = loadConfig({ FRONTDESK_LOG_LEVEL: "silent", ...process.env, FRONTDESK_EMBEDDINGS_PROVIDER: "hashing" });
  const embedder = await createEmbedder(config.embeddings, { info() {}, warn() {} });
  const db = await openPgliteDatabase(null);
  await migrate(db);
  const admin = { db, jobs: async () => { throw new Error("no jobs in the study"); } };
  const workspace = await runAdminCommand(admin, { command: "workspace.create", name: "Study" });
  const pipeline = createIngestPipeline(config, embedder);
  const indexed = [];
  for (const set of sets) {
    const agent = await runAdminCommand(admin, { command: "agent.create", workspaceId: workspace.id, name: set.name, origins: ["https://eval.test"] });
    await indexPages(db, pipeline, { id: agent.id, workspaceId: workspace.id }, set.pages);
    const urls = new Map((await db.query(`SELECT c.id::int AS id, d.url FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.agent_id = $1`, [agent.id])).rows.map((row) => [row.id, row.url]));
    const slugOf = new Map(set.pages.map((page) => [page.url, page.slug]));
    const chunks = (await readIndexedChunks(db, { agentId: agent.id, embedder: embedder.id, after: 0, limit: 1_000_000 })).map((chunk) => ({
      ...chunk,
      slug: slugOf.get(urls.get(chunk.chunkId)),
      frequency: new Map(chunk.lexemes.map((lexeme, i) => [lexeme, chunk.frequencies[i]])),
    }));
    const placed = await db.query(`SELECT c.id::int AS id, u.lexeme, u.positions FROM chunks c, unnest(c.search_vector) u WHERE c.agent_id = $1`, [agent.id]);
    for (const chunk of chunks) chunk.positions = positionsOf(placed.rows.filter((row) => row.id === chunk.chunkId));
    const questions = [];
    for (const item of [...set.answerable, ...set.unanswerable.map((q) => ({ ...q, expected: null }))]) {
      // The message's last sentence: the question itself after a story (govuk's scenarios).
      const last = item.question.split(/(?<=[.!?])\s+/).filter((part) => part.trim() !== "").at(-1) ?? item.question;
      const { rows } = await db.query(
        `SELECT ARRAY(SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $1))) AS lexemes, ARRAY(SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $2))) AS last`,
        [item.question, last],
      );
      const [vector] = await embedder.embed([item.question]);
      const nearest = await searchByVector(db, { agentId: agent.id, embedder: embedder.id, vector, limit: 1 });
      // The question's neighbouring words, as the service pairs them (questionLexemesSql).
      const placedQuestion = [...positionsOf((await db.query(`SELECT lexeme, positions FROM unnest(to_tsvector('english', $1))`, [item.question])).rows)];
      const pairs = placedQuestion.flatMap(([a, at], i) =>
        placedQuestion.slice(i + 1).filter(([, bt]) => at.some((x) => bt.some((y) => Math.abs(x - y) <= QUESTION_PAIR_SPAN))).map(([b]) => [a, b]),
      );
      questions.push({ ...item, pairs, lexemes: rows[0].lexemes, lastLexemes: rows[0].last, weights: lexemeWeights(rows[0].lexemes, item.question), similarity: nearest[0]?.score ?? 0 });
    }
    indexed.push({ name: set.name, chunks, questions });
  }
  await pipeline.close();
  await embedder.close();
  await db.close();
  return indexed;
}

/** BM25 of every chunk for a question, as the lexical index scores it, with the words each chunk holds. */
function score(set, question) {
  const count = set.chunks.length;
  const frequencyOf = (set.documentFrequency ??= (() => {
    const df = new Map();
    for (const chunk of set.chunks) for (const lexeme of chunk.lexemes) df.set(lexeme, (df.get(lexeme) ?? 0) + 1);
    return df;
  })());
  const averageLength = (set.averageLength ??= set.chunks.reduce((sum, chunk) => sum + chunk.length, 0) / count);
  const unseen = inverseDocumentFrequency(count, 0);
  const terms = question.lexemes.map((lexeme) => {
    const df = frequencyOf.get(lexeme) ?? 0;
    const idf = inverseDocumentFrequency(count, df);
    const rarity = question.weights.get(lexeme) ?? 0;
    return { lexeme, df, idf, rarity, weight: (rarity * idf) / unseen };
  });
  const hits = [];
  for (const chunk of set.chunks) {
    let total = 0;
    const held = [];
    const norm = BM25.k1 * (1 - BM25.b + (BM25.b * chunk.length) / averageLength);
    for (const term of terms) {
      const tf = chunk.frequency.get(term.lexeme);
      if (!tf) continue;
      total += (term.idf * tf * (BM25.k1 + 1)) / (tf + norm);
      held.push(term);
    }
    if (total > 0) hits.push({ chunk, score: total, held });
  }
  hits.sort((a, b) => b.score - a.score || a.chunk.chunkId - b.chunk.chunkId);
  const idf = new Map(terms.map((term) => [term.lexeme, term.idf]));
  const pairs = question.pairs.filter(([a, b]) => frequencyOf.has(a) && frequencyOf.has(b)).map(([first, second]) => ({ first, second, weight: Math.min(idf.get(first), idf.get(second)) }))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, MOST_PAIRS);
  return { terms, hits, pairs };
}

const sum = (list, of) => list.reduce((total, item) => total + of(item), 0);
const documentsOf = (hits) => [...new Set(hits.map((hit) => hit.chunk.slug))];

/** The signals studied, each higher when the question looks answerable. */
function signals(set, question) {
  const { terms, hits, pairs } = score(set, question);
  const top3 = hits.slice(0, 3);
  const totalWeight = sum(terms, (t) => t.weight) || 1;
  const totalRarity = sum(terms, (t) => t.rarity) || 1;
  const bestPossibleOf = (of) => sum([...of].sort((a, b) => b.idf - a.idf).slice(0, 6), (t) => t.idf) * (BM25.k1 + 1) || 1;
  const bestPossible = bestPossibleOf(terms);
  const normalisedBest = (scored) => Math.max(0, ...scored.hits.slice(0, 3).map((hit) => hit.score / bestPossibleOf(scored.terms)));
  const lastSentence = question.lastLexemes.length > 0 ? score(set, { ...question, lexemes: question.lastLexemes }) : { terms, hits };
  const documents = documentsOf(hits);
  const documentScore = (slug) => hits.find((hit) => hit.chunk.slug === slug)?.score ?? 0;
  const inBestDocument = new Set(hits.filter((hit) => hit.chunk.slug === documents[0]).flatMap((hit) => hit.held.map((t) => t.lexeme)));
  const pairWeight = sum(pairs, (pair) => pair.weight);
  return {
    "pairs close together, best passage (share of weight)": pairWeight === 0 ? 1 : Math.max(0, ...top3.map((hit) => proximityBonus(hit.chunk.positions, pairs) / pairWeight)),
    "best passage (BM25 + proximity) / best possible (shipped)": Math.max(0, ...top3.map((hit) => (hit.score + proximityBonus(hit.chunk.positions, pairs)) / (bestPossible + pairWeight))),
    "best passage BM25 / best possible": Math.max(0, ...top3.map((hit) => hit.score / bestPossible)),
    "rarity-weighted coverage, best passage": Math.max(0, ...top3.map((hit) => sum(hit.held, (t) => t.weight) / totalWeight)),
    "rarity-weighted coverage, best document": sum(terms.filter((t) => inBestDocument.has(t.lexeme)), (t) => t.weight) / totalWeight,
    "plain rarity coverage, best document": sum(terms.filter((t) => inBestDocument.has(t.lexeme)), (t) => t.rarity) / totalRarity,
    "- rarity words unknown to knowledge (shipped)": -sum(terms.filter((t) => t.df === 0), (t) => t.weight) / totalWeight,
    "- rarest word missing from best document": -Math.max(0, ...terms.filter((t) => !inBestDocument.has(t.lexeme)).map((t) => t.rarity)),
    "best passage BM25, min of message and last sentence": Math.min(normalisedBest({ terms, hits }), normalisedBest(lastSentence)),
    "BM25 margin, 1st over 2nd document": documents.length > 1 ? 1 - documentScore(documents[1]) / documentScore(documents[0]) : documents.length,
    "Σ rarity x IDF matched by best passage": Math.max(0, ...top3.map((hit) => sum(hit.held, (t) => (t.rarity * t.idf) / 5))),
    "hashing cosine, nearest chunk (shipped)": question.similarity,
  };
}

/** Area under the ROC curve: the chance an answerable question scores above an out-of-scope one. */
function auc(positive, negative) {
  let total = 0;
  for (const p of positive) for (const n of negative) total += p > n ? 1 : p === n ? 0.5 : 0;
  return positive.length && negative.length ? total / (positive.length * negative.length) : NaN;
}

/** The threshold (below it: low confidence) with the best `low_confidence` F1 on some outcomes. */
function bestThreshold(items, of) {
  const values = [...new Set(items.map(of))].sort((a, b) => a - b);
  let best = { threshold: -Infinity, f1: -1 };
  for (let i = 0; i <= values.length; i++) {
    const threshold = i === 0 ? -Infinity : i === values.length ? Infinity : (values[i - 1] + values[i]) / 2;
    const { f1 } = lowConfidenceFigures(items, (o) => of(o) < threshold);
    if (f1 > best.f1) best = { threshold, f1 };
  }
  return best.threshold;
}

/** Logistic regression (standardised features, L2, gradient descent): a confidence function. */
function fitLogistic(items, names) {
  const rows = items.map((o) => names.map((name) => o.signals[name]));
  const mean = names.map((_, j) => sum(rows, (row) => row[j]) / rows.length);
  const spread = names.map((_, j) => Math.sqrt(sum(rows, (row) => (row[j] - mean[j]) ** 2) / rows.length) || 1);
  const z = rows.map((row) => row.map((value, j) => (value - mean[j]) / spread[j]));
  const target = items.map((o) => (o.expected === null ? 0 : 1));
  let weights = names.map(() => 0);
  let bias = 0;
  for (let step = 0; step < 1500; step++) {
    const gradient = names.map(() => 0);
    let gradientBias = 0;
    z.forEach((row, i) => {
      const error = 1 / (1 + Math.exp(-(bias + sum(row.map((v, j) => v * weights[j]), (x) => x)))) - target[i];
      row.forEach((v, j) => (gradient[j] += error * v));
      gradientBias += error;
    });
    weights = weights.map((w, j) => w - 0.5 * (gradient[j] / z.length + 0.01 * w));
    bias -= (0.5 * gradientBias) / z.length;
  }
  return (o) => bias + sum(names, (name) => weights[names.indexOf(name)] * ((o.signals[name] - mean[names.indexOf(name)]) / spread[names.indexOf(name)]));
}

/** F1 on `test` of a confidence calibrated (model and threshold) on `train`. */
function crossValidated(train, test, names) {
  const confidence = fitLogistic(train, names);
  const threshold = bestThreshold(train, confidence);
  return lowConfidenceFigures(test, (o) => confidence(o) < threshold);
}

const sets = await indexSets(await loadSets(root));
const studied = Object.fromEntries(sets.map((set) => [set.name, set.questions.map((q) => ({ ...q, signals: signals(set, q) }))]));
const [first, second] = sets.map((set) => set.name);
const pct = (x) => `${(100 * x).toFixed(0)} %`;

console.log(`Confidence signals: AUC, answerable against out-of-scope (all / near / far); 0.5 is chance`);
for (const name of Object.keys(studied[first][0].signals)) {
  const cells = sets.map(({ name: set }) => {
    const items = studied[set];
    const answerable = items.filter((o) => o.expected !== null).map((o) => o.signals[name]);
    const of = (kind) => items.filter((o) => o.expected === null && (kind === null || o.kind === kind)).map((o) => o.signals[name]);
    return `${set} ${auc(answerable, of(null)).toFixed(3)} / ${auc(answerable, of("near")).toFixed(3)} / ${auc(answerable, of("far")).toFixed(3)}`;
  });
  console.log(`  ${name.padEnd(52)} ${cells.join("   ")}`);
}

const combinations = [
  ["best passage BM25 / best possible"],
  ["best passage BM25 / best possible", "rarity-weighted coverage, best passage", "- rarity words unknown to knowledge (shipped)", "hashing cosine, nearest chunk (shipped)"],
  ["best passage BM25, min of message and last sentence"],
  ["best passage BM25 / best possible", "BM25 margin, 1st over 2nd document"],
  ["best passage BM25 / best possible", "plain rarity coverage, best document"],
  ["best passage BM25 / best possible", "BM25 margin, 1st over 2nd document", "rarity-weighted coverage, best document", "- rarest word missing from best document"],
  ["best passage BM25 / best possible", "pairs close together, best passage (share of weight)"],
  ["best passage (BM25 + proximity) / best possible (shipped)"],
  Object.keys(studied[first][0].signals),
];
console.log(`\nLogistic regressions, calibrated on one part and scored on another: low_confidence F1 (out-of-scope answered confidently)`);
for (const names of combinations) {
  const across = [
    crossValidated(studied[first], studied[second], names),
    crossValidated(studied[second], studied[first], names),
  ];
  const folds = sets.flatMap(({ name: set }) => {
    const odd = studied[set].filter(isOdd);
    const even = studied[set].filter((o) => !isOdd(o));
    return [crossValidated(odd, even, names).f1, crossValidated(even, odd, names).f1];
  });
  const label = names.length === Object.keys(studied[first][0].signals).length ? "all signals" : names.map((n) => n.replace(/ \(shipped\)$/, "")).join(" + ");
  console.log(`  ${label}`);
  console.log(
    `      ${first}→${second} ${across[0].f1.toFixed(3)} (${pct(across[0].outOfScopeConfident)})  ${second}→${first} ${across[1].f1.toFixed(3)} (${pct(across[1].outOfScopeConfident)})  2-fold ${folds.map((f) => f.toFixed(3)).join(" / ")}`,
  );
}

console.log(`\nDocument rankings: recall@1 / @3 / @5 of the expected page (answerable questions)`);
const rankings = {
  "best passage (BM25 alone)": (hits) => documentsOf(hits),
  "sum of passages": (hits) => aggregate(hits, (scores) => sum(scores, (s) => s)),
  "best passage + 0.3 x the others": (hits) => aggregate(hits, (scores) => scores[0] + 0.3 * sum(scores.slice(1), (s) => s)),
};
function aggregate(hits, combine) {
  const bySlug = new Map();
  for (const hit of hits) bySlug.set(hit.chunk.slug, [...(bySlug.get(hit.chunk.slug) ?? []), hit.score]);
  return [...bySlug].map(([slug, scores]) => [slug, combine(scores)]).sort((a, b) => b[1] - a[1]).map(([slug]) => slug);
}
// The proximity term (term-proximity.ts) at the shipped weight (1) and around it.
for (const weight of [0.5, 1, 1.5, 2]) {
  rankings[`best passage, BM25 + ${weight} x proximity${weight === 1 ? " (shipped)" : ""}`] = (hits, pairs) =>
    documentsOf(hits.map((hit) => ({ ...hit, score: hit.score + weight * proximityBonus(hit.chunk.positions, pairs) })).sort((a, b) => b.score - a.score || a.chunk.chunkId - b.chunk.chunkId));
}
for (const [label, rank] of Object.entries(rankings)) {
  const cells = sets.map((set) => {
    const answerable = set.questions.filter((q) => q.expected !== null);
    const positions = answerable.map((q) => {
      const { hits, pairs } = score(set, q);
      return rank(hits, pairs).indexOf(q.expected) + 1;
    });
    const at = (k) => (positions.filter((p) => p >= 1 && p <= k).length / positions.length).toFixed(3);
    return `${set.name} ${at(1)} / ${at(3)} / ${at(5)}`;
  });
  console.log(`  ${label.padEnd(44)} ${cells.join("   ")}`);
}
