import { answerTurn, turnKnowledgeOf, type TurnDecision } from "../answering/answer-turn.js";
import { findCuratedAnswer } from "../console/curated/find-curated-answer.js";
import type { Services } from "../services.js";
import { findWorkspaceModelProvider } from "../tenants/workspace-model-providers.js";
import type { AnswerInstructions } from "@frontdesk/contracts";
import type { TestedTurn } from "./judge-answer.js";

/** What asking an agent needs: its knowledge, its curated answers and its generator (the workspace's model, or the service's). */
export type AskingServices = Pick<Services, "db" | "embedder" | "lexical" | "retrievalCalibration" | "answers" | "answerModels" | "embedders">;

/** The agent as a turn reads it. */
export interface AskedAgent {
  id: string;
  workspaceId: string;
  languageDefault: string;
  personaName: string;
  personaTone: string;
  answerModel: string;
  instructions: AnswerInstructions;
}

/**
 * A test's question asked as a visitor's first message, through the one answering pipeline
 * (`answerTurn`, as the widget and "Try a question" call it: curated answers, a request for a
 * person, small talk, retrieval, confidence, composition). Nothing is stored: the decision is only
 * read, as "Try a question" does.
 */
export async function askAgent(services: AskingServices, agent: AskedAgent, question: string, signal: AbortSignal): Promise<TestedTurn> {
  let content = "";
  let error: string | null = null;
  let decision: TurnDecision | null = null;
  // The agent's own model and instructions, as the widget answers with them ("Try a question" alike).
  const provider = await findWorkspaceModelProvider(services.db, agent.workspaceId);
  const generator = await services.answerModels.forAgent(services.db, services.answers, agent, provider?.revision ?? null);
  const knowledge = turnKnowledgeOf(
    services,
    await services.embedders.active(agent.workspaceId),
    async (message) => {
      const found = await findCuratedAnswer(services.db, { workspaceId: agent.workspaceId, agentId: agent.id, question: message });
      return found === null ? null : { ...found.curated, similarity: found.similarity };
    },
    generator,
  );
  for await (const event of answerTurn(knowledge, {
    agent: { id: agent.id, language: agent.languageDefault, persona: { name: agent.personaName, tone: agent.personaTone }, instructions: agent.instructions },
    message: question,
    history: [],
    signal,
  })) {
    if (event.type === "token") content += event.token;
    else if (event.type === "error") error = event.message;
    else decision = event.decision;
  }
  if (decision === null) throw new Error("the turn ended without a decision");
  if (decision.kind === "handoff") return { kind: "handoff" };
  const { reply } = decision;
  return { kind: "reply", content: reply.content || content, citations: reply.citations, lowConfidence: reply.lowConfidence, error };
}
