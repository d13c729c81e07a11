import type { CreateConsoleAgentBody, UpdateConsoleAgentBody } from "@frontdesk/contracts";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import type { Agent } from "../../tenants/agent.js";
import { findWorkspaceAgent, setAgentPublished } from "../../tenants/agents.js";
import { createAgent } from "../../tenants/create-agent.js";
import { updateAgent } from "../../tenants/update-agent.js";
import { identitySecretBoxOf } from "../../tenants/identity-secret-box.js";
import { rotateIdentitySecret } from "../../tenants/rotate-identity-secret.js";
import type { SignedInOperator } from "../authenticate-operator.js";

export const agentNotFound = () => new AppError("agent_not_found", "No agent with this id in your workspace.");

/** The use cases name fields as the CLI does (`origin`, `behaviorRules.0…`); the console's body says `origins`, `behavior_rules.0…`. */
const CONSOLE_FIELD_NAMES: [cli: string, console: string][] = [
  ["origin", "origins"],
  ["behaviorRules", "behavior_rules"],
  ["officeHours", "office_hours"],
  ["answerModel", "answer_model"],
  ["identityMode", "identity_mode"],
];

async function withConsoleFieldNames<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "validation_failed" || !error.fields) throw error;
    const fields: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(error.fields)) {
      const renamed = CONSOLE_FIELD_NAMES.reduce((name, [cli, console]) => (name === cli || name.startsWith(`${cli}.`) ? console + name.slice(cli.length) : name), field);
      fields[renamed] = messages;
    }
    const message = error.message.replaceAll("--vertical ecommerce", "vertical `ecommerce`").replaceAll(" (--behavior-rules-file)", "");
    throw new AppError("validation_failed", message, fields);
  }
}

/**
 * `agent.changed`, once the change is committed (tenants/ wrote it in its own transaction): this
 * process's cached sessions of the agent are dropped and the workspace's consoles told.
 */
async function announceAgentChange(services: Services, agent: Agent): Promise<Agent> {
  await services.events.raise(services.db, { type: "agent.changed", workspaceId: agent.workspaceId, agentId: agent.id, published: agent.published, updatedAt: agent.updatedAt });
  return agent;
}

/** The agent, only when it belongs to the operator's workspace (another workspace's is `agent_not_found`, never 403). */
export async function requireWorkspaceAgent(services: Services, operator: SignedInOperator, agentId: string): Promise<Agent> {
  const agent = await findWorkspaceAgent(services.db, operator.workspaceId, agentId);
  if (!agent) throw agentNotFound();
  return agent;
}

/** POST /agents: the site's address gives the first allowed origin; the rest as `agent create` does it. */
export async function createConsoleAgent(services: Services, operator: SignedInOperator, body: CreateConsoleAgentBody): Promise<Agent> {
  const origins = [...(body.site_url === undefined ? [] : [new URL(body.site_url).origin]), ...(body.origins ?? [])];
  const agent = await withConsoleFieldNames(() =>
    createAgent(services.db, {
      workspaceId: operator.workspaceId,
      name: body.name,
      origins,
      ...(body.vertical === undefined ? {} : { vertical: body.vertical }),
      ...(body.draft === undefined ? {} : { draft: body.draft }),
      ...(body.persona_name === undefined ? {} : { personaName: body.persona_name }),
      ...(body.tone === undefined ? {} : { tone: body.tone }),
      ...(body.primary_color === undefined ? {} : { primaryColor: body.primary_color }),
      ...(body.starter_prompts === undefined ? {} : { starterPrompts: body.starter_prompts }),
      ...(body.language === undefined ? {} : { language: body.language }),
    }),
  );
  return announceAgentChange(services, agent);
}

/** PATCH /agents/{id}: `agent update`'s use case; running widget sessions see the change at once. */
export async function updateConsoleAgent(services: Services, operator: SignedInOperator, agentId: string, body: UpdateConsoleAgentBody): Promise<Agent> {
  await requireWorkspaceAgent(services, operator, agentId);
  const agent = await withConsoleFieldNames(() =>
    updateAgent(services.db, {
      agentId,
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.origins === undefined ? {} : { origins: body.origins }),
      ...(body.vertical === undefined ? {} : { vertical: body.vertical }),
      ...(body.persona_name === undefined ? {} : { personaName: body.persona_name }),
      ...(body.tone === undefined ? {} : { tone: body.tone }),
      ...(body.primary_color === undefined ? {} : { primaryColor: body.primary_color }),
      ...(body.starter_prompts === undefined ? {} : { starterPrompts: body.starter_prompts }),
      ...(body.language === undefined ? {} : { language: body.language }),
      ...(body.behavior_rules === undefined ? {} : { behaviorRules: body.behavior_rules }),
      ...(body.branding === undefined ? {} : { branding: body.branding }),
      ...(body.office_hours === undefined ? {} : { officeHours: body.office_hours }),
      ...(body.away_message === undefined ? {} : { awayMessage: body.away_message }),
      ...(body.reply_time === undefined ? {} : { replyTime: body.reply_time }),
      ...(body.answer_model === undefined ? {} : { answerModel: body.answer_model }),
      ...(body.instructions === undefined ? {} : { instructions: body.instructions }),
      ...(body.identity_mode === undefined ? {} : { identityMode: body.identity_mode }),
      ...(body.routing === undefined ? {} : { routing: body.routing }),
    }, services.events, services.now),
  );
  return announceAgentChange(services, agent);
}

/** POST /agents/{id}/publish and /unpublish: a draft answers init with `agent_not_found`. */
export async function setConsoleAgentPublished(services: Services, operator: SignedInOperator, agentId: string, published: boolean): Promise<Agent> {
  await requireWorkspaceAgent(services, operator, agentId);
  const agent = await setAgentPublished(services.db, agentId, published);
  if (!agent) throw agentNotFound();
  return announceAgentChange(services, agent);
}

/**
 * POST /agents/{id}/identity-secret: creates or rotates the agent's identity secret, returned this
 * once; hashes made with the previous one stop verifying (this process at once, others within the
 * session cache's two seconds).
 */
export async function rotateConsoleIdentitySecret(services: Services, operator: SignedInOperator, agentId: string): Promise<{ secret: string; created_at: string }> {
  const rotated = await rotateIdentitySecret(services.db, await identitySecretBoxOf(services.config), { agentId, workspaceId: operator.workspaceId }).catch((error: unknown) => {
    throw error instanceof AppError && error.code === "agent_not_found" ? agentNotFound() : error;
  });
  await announceAgentChange(services, rotated.agent);
  return { secret: rotated.secret, created_at: rotated.agent.identitySecretCreatedAt ?? rotated.agent.updatedAt };
}
