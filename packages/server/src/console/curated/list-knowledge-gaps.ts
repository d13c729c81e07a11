import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findWorkspaceAgent } from "../../tenants/agents.js";
import { analyticsPeriod } from "../analytics/show-analytics.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { CURATED_ANSWER_THRESHOLD, matchCuratedAnswers } from "./find-curated-answer.js";
import { groupSimilarQuestions } from "./group-similar-questions.js";
import { listLowConfidenceQuestions } from "../../conversations/messages.js";
import { KNOWLEDGE_GAPS_MAX } from "./schemas.js";

/** How many low-confidence answers of the period are grouped (the most recent). */
export const KNOWLEDGE_GAP_QUESTIONS_READ = 2000;
const EXAMPLES = 5;
const DAY_MS = 86_400_000;

/**
 * GET /console/knowledge-gaps: the low-confidence questions of an agent in a period, grouped. Each
 * question (newest first) joins the first group whose representative (the group's first, so most
 * recent, question) has the same normalised text or a similarity at or above the curated answers'
 * threshold, else starts a group. Groups are ordered by count, then by last asked. Each shown
 * group says which curated answer its question would now get, if any ("answered").
 *
 * The grouping is bounded work on the event loop rather than a worker thread: at most 2,000 short
 * questions, compared only with the groups sharing a content word (group-similar-questions.ts), in
 * slices of about a millisecond with setImmediate yields between them; a worker would copy the
 * questions across for work that takes a few milliseconds in all.
 */
export async function listKnowledgeGaps(
  services: Services,
  operator: SignedInOperator,
  query: { agent_id: string; from?: string | undefined; to?: string | undefined },
) {
  const period = analyticsPeriod(services.now(), query);
  const agent = await findWorkspaceAgent(services.db, operator.workspaceId, query.agent_id);
  if (!agent) throw new AppError("agent_not_found", `No agent ${query.agent_id} in this workspace.`);
  const from = new Date(`${period.from}T00:00:00Z`);
  const to = new Date(new Date(`${period.to}T00:00:00Z`).getTime() + DAY_MS);
  const asked = await listLowConfidenceQuestions(services.db, { workspaceId: operator.workspaceId, agentId: agent.id, from, to }, KNOWLEDGE_GAP_QUESTIONS_READ);

  const groups = await groupSimilarQuestions(asked, { threshold: CURATED_ANSWER_THRESHOLD, examples: EXAMPLES });
  groups.sort((a, b) => b.count - a.count || (a.lastAskedAt < b.lastAskedAt ? 1 : a.lastAskedAt > b.lastAskedAt ? -1 : 0));
  const shown = groups.slice(0, KNOWLEDGE_GAPS_MAX);
  const curated = await matchCuratedAnswers(services.db, { workspaceId: operator.workspaceId, agentId: agent.id, questions: shown.map((group) => group.question) });
  return {
    agent_id: agent.id,
    from: period.from,
    to: period.to,
    gaps: shown.map((group, index) => ({
      question: group.question,
      count: group.count,
      last_asked_at: group.lastAskedAt,
      questions: group.questions,
      curated_answer_id: curated[index] ?? null,
    })),
  };
}
