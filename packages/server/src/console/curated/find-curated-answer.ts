import type { Queryable } from "../../db/database.js";
import { type CuratedAnswer, findWorkspaceCuratedAnswer, listAgentCuratedQuestions } from "./curated-answer-repository.js";
import { normaliseQuestion, questionSimilarity } from "./question-similarity.js";

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

/** How many of an agent's curated answers are compared (the newest). */
export const CURATED_ANSWERS_COMPARED = 1000;

/** The agent's curated answer closest to `question`, if at or above the threshold (the newest wins a tie). */
export async function findCuratedAnswer(
  db: Queryable,
  scope: { workspaceId: string; agentId: string; question: string },
): Promise<{ curated: CuratedAnswer; similarity: number } | null> {
  const normalised = normaliseQuestion(scope.question);
  if (normalised === "") return null;
  const candidates = await listAgentCuratedQuestions(db, scope.workspaceId, scope.agentId, CURATED_ANSWERS_COMPARED);
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
