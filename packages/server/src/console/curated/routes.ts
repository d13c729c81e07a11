import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findWorkspaceAgent } from "../../tenants/agents.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { createCuratedAnswer } from "./create-curated-answer.js";
import { type CuratedAnswer, deleteCuratedAnswer, listAgentCuratedAnswers, updateCuratedAnswer } from "./curated-answer-repository.js";
import { listKnowledgeGaps } from "./list-knowledge-gaps.js";
import {
  CURATED_LIST_MAX,
  createCuratedAnswerRouteSchema,
  deleteCuratedAnswerRouteSchema,
  knowledgeGapsRouteSchema,
  listCuratedAnswersRouteSchema,
  updateCuratedAnswerRouteSchema,
} from "./schemas.js";

const present = (curated: CuratedAnswer) => ({
  id: curated.id,
  agent_id: curated.agentId,
  question: curated.question,
  answer: curated.answer,
  source_url: curated.sourceUrl,
  created_by: curated.createdBy,
  created_at: curated.createdAt,
  updated_at: curated.updatedAt,
});

const notFound = (id: string) => new AppError("not_found", `No curated answer ${id} in this workspace.`);

/**
 * `curated_answer.changed`, in one transaction with its consequences: once committed, the consoles'
 * lists of curated answers and knowledge gaps read again; and, a curated answer being the first stage
 * of every answer, the agent's answer tests run again (after the burst of edits settles).
 */
const announce = (services: Services, workspaceId: string, change: { agentId: string; id: string; deleted: boolean }) =>
  services.db.transaction((tx) =>
    services.events.raise(tx, { type: "curated_answer.changed", workspaceId, agentId: change.agentId, curatedAnswerId: change.id, deleted: change.deleted }),
  );

/**
 * Curated answers ("Fix this answer") and the knowledge gaps list, under /api/v1/console:
 * admins write, any operator reads; everything is the operator's workspace's (another's is 404).
 */
export const curatedAnswerRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const admin = operatorGuard(services);

  app.post("/curated-answers", { schema: createCuratedAnswerRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const curated = await createCuratedAnswer(services, operator, request.body);
    await announce(services, operator.workspaceId, { agentId: curated.agentId, id: curated.id, deleted: false });
    return reply.status(201).send({ data: present(curated) });
  });

  app.get("/curated-answers", { schema: listCuratedAnswersRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    const agent = await findWorkspaceAgent(services.db, operator.workspaceId, request.query.agent_id);
    if (!agent) throw new AppError("agent_not_found", `No agent ${request.query.agent_id} in this workspace.`);
    return { data: (await listAgentCuratedAnswers(services.db, operator.workspaceId, agent.id, CURATED_LIST_MAX)).map(present) };
  });

  app.patch("/curated-answers/:id", { schema: updateCuratedAnswerRouteSchema, preValidation: admin }, async (request) => {
    const operator = operatorOf(request);
    const { question, answer, source_url: sourceUrl } = request.body;
    const updated = await updateCuratedAnswer(services.db, operator.workspaceId, request.params.id, { question, answer, sourceUrl });
    if (!updated) throw notFound(request.params.id);
    await announce(services, operator.workspaceId, { agentId: updated.agentId, id: updated.id, deleted: false });
    return { data: present(updated) };
  });

  app.delete("/curated-answers/:id", { schema: deleteCuratedAnswerRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const deleted = await deleteCuratedAnswer(services.db, operator.workspaceId, request.params.id);
    if (!deleted) throw notFound(request.params.id);
    await announce(services, operator.workspaceId, { agentId: deleted.agentId, id: request.params.id, deleted: true });
    return reply.code(204).send(null);
  });

  app.get("/knowledge-gaps", { schema: knowledgeGapsRouteSchema, preValidation: guard }, async (request) => ({
    data: await listKnowledgeGaps(services, operatorOf(request), request.query),
  }));
};
