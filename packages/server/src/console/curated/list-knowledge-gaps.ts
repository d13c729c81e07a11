import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findWorkspaceAgent } from "../../tenants/agent-repository.js";
import { analyticsPeriod } from "../analytics/show-analytics.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { CURATED_ANSWER_THRESHOLD } from "./find-curated-answer.js";
import { listLowConfidenceQuestions } from "./knowledge-gap-repository.js";
import { normaliseQuestion, questionSimilarity } from "./question-similarity.js";
import { KNOWLEDGE_GAPS_MAX } from "./schemas.js";

/** How many low-confidence answers of the period are grouped (the most recent). */
export const KNOWLEDGE_GAP_QUESTIONS_READ = 2000;
const EXAMPLES = 5;
const DAY_MS = 86_400_000;

interface Group {
  representative: string;
  question: string;
  count: number;
  lastAskedAt: string;
  questions: string[];
}

/**
 * GET /console/knowledge-gaps: the low-confidence questions of an agent in a period, grouped. Each
 * question (newest first) joins the first group whose representative (the group's first, so most
 * recent, question) has the same normalised text or a similarity at or above the curated answers'
 * threshold, else starts a group. Groups are ordered by count, then by last asked.
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

  const groups: Group[] = [];
  for (const { question, askedAt } of asked) {
    const normalised = normaliseQuestion(question);
    const group = groups.find(
      (candidate) => candidate.representative === normalised || questionSimilarity(candidate.representative, normalised) >= CURATED_ANSWER_THRESHOLD,
    );
    if (group) {
      group.count += 1;
      if (group.questions.length < EXAMPLES && !group.questions.includes(normalised)) group.questions.push(normalised);
    } else {
      groups.push({ representative: normalised, question, count: 1, lastAskedAt: askedAt, questions: [normalised] });
    }
  }
  groups.sort((a, b) => b.count - a.count || (a.lastAskedAt < b.lastAskedAt ? 1 : a.lastAskedAt > b.lastAskedAt ? -1 : 0));
  return {
    agent_id: agent.id,
    from: period.from,
    to: period.to,
    gaps: groups.slice(0, KNOWLEDGE_GAPS_MAX).map((group) => ({
      question: group.question,
      count: group.count,
      last_asked_at: group.lastAskedAt,
      questions: group.questions,
    })),
  };
}
