import type { TryQuestionBody, TryQuestionResponse } from "@frontdesk/contracts";
import { answerTurn, turnKnowledgeOf, type TurnDecision } from "../../answering/answer-turn.js";
import type { TurnTrace } from "../../answering/turn-trace.js";
import type { Services } from "../../services.js";
import { requireWorkspaceAgent } from "../agents/change-console-agent.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { findCuratedAnswer } from "../curated/find-curated-answer.js";
import { explainTurn } from "./explain-turn.js";
import { findWorkspaceModelProvider } from "../../tenants/workspace-model-providers.js";

type TryQuestionResult = TryQuestionResponse["data"];

/**
 * "Try a question": the agent's turn for a question asked out of any conversation, through the
 * same stages as a visitor's (`answerTurn`: a curated answer, a request for a person, small talk,
 * retrieval, confidence, composition by the service's generator, persona and language as for a
 * visitor), explained in words (`explainTurn`). Nothing is stored and no conversation changes: a
 * request for a person is only reported.
 */
export async function tryQuestion(services: Services, operator: SignedInOperator, body: TryQuestionBody, signal: AbortSignal): Promise<TryQuestionResult> {
  const agent = await requireWorkspaceAgent(services, operator, body.agent_id);
  const provider = await findWorkspaceModelProvider(services.db, agent.workspaceId);
  const generator = await services.answerModels.forAgent(services.db, services.answers, agent, provider?.revision ?? null);
  let content = "";
  let error: TryQuestionResult["answer"]["error"] = null;
  let outcome: { decision: TurnDecision; trace: TurnTrace } | null = null;
  for await (const event of answerTurn(
    turnKnowledgeOf(services, await services.embedders.active(agent.workspaceId), async (question) => {
      const found = await findCuratedAnswer(services.db, { workspaceId: agent.workspaceId, agentId: agent.id, question });
      return found === null ? null : { ...found.curated, similarity: found.similarity };
    }, generator),
    {
      agent: { id: agent.id, language: agent.languageDefault, persona: { name: agent.personaName, tone: agent.personaTone }, instructions: agent.instructions },
      message: body.question,
      history: [],
      signal,
    },
  )) {
    if (event.type === "token") content += event.token;
    else if (event.type === "error") error = { code: event.code, message: event.message };
    else outcome = event;
  }
  if (outcome === null) throw new Error("the turn ended without a decision");
  return explainTurn(body.question, agent.languageDefault, content, error, outcome.decision, outcome.trace);
}
