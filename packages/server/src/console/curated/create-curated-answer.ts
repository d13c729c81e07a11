import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findWorkspaceAgent } from "../../tenants/agents.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { findQuestionOfBotMessage } from "../../conversations/messages.js";
import { type CuratedAnswer, insertCuratedAnswer } from "./curated-answer-repository.js";

/**
 * POST /console/curated-answers: stores an operator's answer. "Fix this answer" passes the bot
 * reply's `message_id`: its agent, and the visitor's message before it as the question unless one
 * is given. An `agent_id` that is not the message's is refused (422).
 */
export async function createCuratedAnswer(
  services: Services,
  operator: SignedInOperator,
  body: { agent_id?: string | undefined; question?: string | undefined; answer: string; source_url?: string | undefined; message_id?: string | undefined },
): Promise<CuratedAnswer> {
  let agentId = body.agent_id;
  let question = body.question;
  if (body.message_id !== undefined) {
    const replied = await findQuestionOfBotMessage(services.db, operator.workspaceId, body.message_id);
    if (!replied) throw new AppError("not_found", `No bot message ${body.message_id} in this workspace.`);
    if (agentId !== undefined && agentId !== replied.agentId) {
      throw new AppError("validation_failed", "The request is invalid.", { agent_id: ["must be the agent of message_id"] });
    }
    agentId = replied.agentId;
    question ??= replied.question?.trim() || undefined;
    if (question === undefined) throw new AppError("validation_failed", "The request is invalid.", { question: ["required: no visitor message precedes message_id"] });
  }
  if (agentId === undefined || question === undefined) {
    throw new AppError("validation_failed", "The request is invalid.", { agent_id: ["required unless message_id is given"] });
  }
  const agent = await findWorkspaceAgent(services.db, operator.workspaceId, agentId);
  if (!agent) throw new AppError("agent_not_found", `No agent ${agentId} in this workspace.`);
  return insertCuratedAnswer(services.db, {
    workspaceId: operator.workspaceId,
    agentId: agent.id,
    question: question.slice(0, 1000),
    answer: body.answer,
    sourceUrl: body.source_url ?? null,
    createdBy: operator.id,
  });
}
