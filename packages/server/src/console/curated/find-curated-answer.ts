import type { Queryable } from "../../db/database.js";
import { type CuratedAnswer, findWorkspaceCuratedAnswer, listCuratedQuestionCandidates } from "./curated-answer-repository.js";
import { contentStems, normaliseQuestion, questionSimilarity } from "./question-similarity.js";

/**
 * The similarity from which a question gets a curated answer directly. Measured by
 * eval/curated-threshold.mjs (one question curated per document, every other question asked;
 * docs/benchmarks.md, "Curated answers"): at 0.55 no question about another document and no
 * unanswerable question matched, in either eval set (fixtures: 0/66 and 0/30; GOV.UK: 0/212 and
 * 0/60), while at 0.45 one fixture question matched another document's answer and at 0.4, 11 did.
 * True matches are few at any threshold (fixtures 1/66, GOV.UK 4/212 at 0.55): the eval's questions
 * about one document are different questions, not rewordings, and a lexical match is meant to
 * catch the rewordings (the same question asked again always matches: 42/42 and 59/59).
 */
export const CURATED_ANSWER_THRESHOLD = 0.55;

/** How many of an agent's candidate curated answers are compared at most (the newest of those sharing a content word). */
export const CURATED_ANSWERS_COMPARED = 1000;

/**
 * The agent's curated answer closest to `question`, if at or above the threshold (the newest wins a
 * tie). SQL selects the candidates, the curated questions sharing a content stem with it (migration
 * 0014: every other one scores 0, below any threshold), and only those are scored here.
 */
export async function findCuratedAnswer(
  db: Queryable,
  scope: { workspaceId: string; agentId: string; question: string },
): Promise<{ curated: CuratedAnswer; similarity: number } | null> {
  const normalised = normaliseQuestion(scope.question);
  if (normalised === "") return null;
  const stems = [...contentStems(normalised)];
  const candidates = await listCuratedQuestionCandidates(db, { workspaceId: scope.workspaceId, agentId: scope.agentId, normalised, stems }, CURATED_ANSWERS_COMPARED);
  let best: { id: string; similarity: number } | null = null;
  for (const candidate of candidates) {
    const similarity = questionSimilarity(candidate.questionNormalised, normalised);
    if (similarity >= CURATED_ANSWER_THRESHOLD && (best === null || similarity > best.similarity)) best = { id: candidate.id, similarity };
  }
  if (best === null) return null;
  // Only the closest one's answer is read (it may have been deleted in between: then there is none).
  const curated = await findWorkspaceCuratedAnswer(db, scope.workspaceId, best.id);
  return curated ? { curated, similarity: best.similarity } : null;
}

/**
 * For each question, the id of the curated answer the answering path would now serve it (or null),
 * as findCuratedAnswer decides: one read of the candidates sharing a stem with any of them (and
 * one per question without content words), then each question scored against its candidates.
 */
export async function matchCuratedAnswers(
  db: Queryable,
  scope: { workspaceId: string; agentId: string; questions: readonly string[] },
): Promise<(string | null)[]> {
  const asked = scope.questions.map((question) => {
    const normalised = normaliseQuestion(question);
    return { normalised, stems: contentStems(normalised) };
  });
  const allStems = [...new Set(asked.flatMap((question) => [...question.stems]))];
  const shared =
    allStems.length === 0
      ? []
      : await listCuratedQuestionCandidates(db, { workspaceId: scope.workspaceId, agentId: scope.agentId, normalised: "", stems: allStems }, CURATED_ANSWERS_COMPARED * 4);
  const matches: (string | null)[] = [];
  for (const question of asked) {
    if (question.normalised === "") {
      matches.push(null);
      continue;
    }
    const candidates =
      question.stems.size > 0
        ? shared
        : await listCuratedQuestionCandidates(db, { workspaceId: scope.workspaceId, agentId: scope.agentId, normalised: question.normalised, stems: [] }, 1);
    let best: { id: string; similarity: number } | null = null;
    for (const candidate of candidates) {
      const similarity = questionSimilarity(candidate.questionNormalised, question.normalised);
      if (similarity >= CURATED_ANSWER_THRESHOLD && (best === null || similarity > best.similarity)) best = { id: candidate.id, similarity };
    }
    matches.push(best?.id ?? null);
  }
  return matches;
}
