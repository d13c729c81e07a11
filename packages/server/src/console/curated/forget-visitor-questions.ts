import type { Queryable } from "../../db/database.js";
import { textArray } from "../../db/text-array.js";
import { normaliseQuestion } from "./question-similarity.js";

/**
 * Erasure's part in curated answers: a curated question that is still a visitor's own words ("Fix
 * this answer" and the knowledge gaps prefill it with what the visitor typed) loses them when that
 * visitor is erased. The operator's answer stays, with an empty question that matches nothing until
 * an operator writes one in their own words (the console asks for it). A question an operator
 * rewrote is theirs and stays. Matched by normalised text among the agent's curated answers
 * (curated_answers_question_idx).
 */
export async function forgetVisitorQuestions(tx: Queryable, visitor: { workspaceId: string; agentId: string; questions: readonly string[] }): Promise<number> {
  const normalised = [...new Set(visitor.questions.map(normaliseQuestion).filter((text) => text !== ""))];
  if (normalised.length === 0) return 0;
  const { rows } = await tx.query(
    `UPDATE curated_answers SET question = '', question_normalised = '', question_stems = '{}', updated_at = now()
     WHERE workspace_id = $1 AND agent_id = $2 AND question_normalised = ANY($3::text[]) RETURNING id`,
    [visitor.workspaceId, visitor.agentId, textArray(normalised)],
  );
  return rows.length;
}
