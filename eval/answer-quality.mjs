// The figures of the answer-quality evaluation, computed from what each question got back.
// Pure functions: run-eval.mjs asks the questions, this file scores the outcomes.

/**
 * @typedef {{ id: string, expected: string | null, cited: string[], lowConfidence: boolean, bm25Top5: boolean, signals: object }} Outcome
 * `expected` is null for a question the corpus cannot answer.
 */

/** Expected document cited, cited first, plain BM25's top 5 (answerable questions). */
export function citationFigures(outcomes) {
  const answerable = outcomes.filter((o) => o.expected !== null);
  const share = (keep) => (answerable.length === 0 ? 0 : answerable.filter(keep).length / answerable.length);
  return {
    cited: share((o) => o.cited.includes(o.expected)),
    citedFirst: share((o) => o.cited[0] === o.expected),
    bm25Top5: share((o) => o.bm25Top5),
  };
}

/** `low_confidence` as a detector of the questions the corpus cannot answer. */
export function lowConfidenceFigures(outcomes, isLow = (o) => o.lowConfidence) {
  const unanswerable = outcomes.filter((o) => o.expected === null);
  const answerable = outcomes.filter((o) => o.expected !== null);
  const truePositives = unanswerable.filter(isLow).length;
  const falsePositives = answerable.filter(isLow).length;
  const precision = truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives);
  const recall = unanswerable.length === 0 ? 1 : truePositives / unanswerable.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, outOfScopeConfident: unanswerable.length === 0 ? 0 : 1 - recall, answerableFlagged: falsePositives };
}

/**
 * Whether a reply states the kind of fact its question asks for ("How long …?" a duration, "How
 * much …?" an amount, "What time …?" a time; `askedKindOf`, `holdsKind`): of the answerable
 * questions asking for one whose confident reply cites the expected document first, how many
 * replies hold one. Retrieval's misses are left out: they are counted by the other figures.
 */
export function askedKindFigures(outcomes, askedKindOf, holdsKind) {
  const asking = outcomes.filter((o) => o.expected !== null && !o.lowConfidence && o.cited[0] === o.expected && askedKindOf(o.question, "en") !== null);
  return { asking: asking.length, stated: asking.filter((o) => holdsKind(o.text, askedKindOf(o.question, "en"), "en")).length };
}

/** Every figure of one run (one set, one embedder, fresh or in one conversation). */
export function answerFigures(outcomes) {
  return { ...citationFigures(outcomes), ...lowConfidenceFigures(outcomes) };
}

const pct = (x) => (100 * x).toFixed(1).padStart(5);
const f3 = (x) => x.toFixed(3);

export const FIGURE_HEADER =
  "set        embedder             mode          cited  first  bm25@5  lowconf P / R / F1      OOS confident";

export function figureLine(set, embedder, mode, f) {
  return `${set.padEnd(10)} ${embedder.padEnd(20)} ${mode.padEnd(12)} ${pct(f.cited)}  ${pct(f.citedFirst)}  ${pct(f.bm25Top5)}   ${f3(f.precision)} / ${f3(f.recall)} / ${f3(f.f1)}   ${pct(f.outOfScopeConfident)}`;
}

/**
 * Grid search of the confidence thresholds on some outcomes (maximising F1 of `low_confidence`,
 * ties to the first candidate), for cross-validation: calibrate on one part, score another.
 */
export function calibrate(outcomes, candidates, isConfident) {
  let best = null;
  for (const thresholds of candidates) {
    const f = lowConfidenceFigures(outcomes, (o) => o.noPassages || !isConfident(o.signals, thresholds));
    if (!best || f.f1 > best.f1 + 1e-9) best = { thresholds, f1: f.f1 };
  }
  return best.thresholds;
}

/**
 * Where the answerable questions whose expected document is not cited first are lost: not in the
 * fused ranking's top 5 (retrieval), in it but answered with low confidence (confidence), cited
 * but not first (it ranked below another document, and citations follow retrieval rank), or
 * retrieved and confident but not cited (selection and the citation limit).
 */
export function missBreakdown(outcomes) {
  const misses = { retrieval: 0, confidence: 0, citedNotFirst: 0, notCited: 0 };
  for (const o of outcomes) {
    if (o.expected === null || o.cited[0] === o.expected) continue;
    const rank = o.rankings.hybrid.indexOf(o.expected) + 1;
    if (rank === 0 || rank > 5) misses.retrieval += 1;
    else if (o.lowConfidence) misses.confidence += 1;
    else if (o.cited.includes(o.expected)) misses.citedNotFirst += 1;
    else misses.notCited += 1;
  }
  return misses;
}

/** Deterministic 50/50 split of questions by id parity (digits of the id). */
export const isOdd = (o) => Number(o.id.replace(/\D/g, "")) % 2 === 1;
