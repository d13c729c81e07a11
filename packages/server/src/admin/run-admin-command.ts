import type { Database } from "../db/database.js";
import { migrate } from "../db/migrate.js";
import { scheduleReembedding } from "../ingest/schedule-reembedding.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { AppError } from "../http/app-error.js";
import { listOperatorInbox } from "../inbox/inbox-repository.js";
import { findAgent, setAgentPublished } from "../tenants/agent-repository.js";
import { revokeApiToken } from "../tenants/api-token-repository.js";
import { createAgent } from "../tenants/create-agent.js";
import { createApiToken } from "../tenants/create-api-token.js";
import { findOperator, insertOperator } from "../tenants/operator-repository.js";
import { findWorkspace, insertWorkspace } from "../tenants/workspace-repository.js";
import { findConversation } from "../widget/conversation-repository.js";
import { listAgentLeads } from "../widget/lead-repository.js";
import { listRecentMessages } from "../widget/session-repository.js";
import { adminCommandSchema, type AdminCommandInput } from "./admin-command.js";
import { presentAdminAgent, presentConversation, presentNotification, presentToken, presentWorkspace } from "./present.js";

const notFound = (what: string, id: string) => new AppError("not_found", `No ${what} ${id}.`);

/** What admin commands run against: the store, and the job queue for commands that schedule work. */
export interface AdminContext {
  db: Database;
  jobs: () => Promise<JobQueue>;
  /** An agent was published or unpublished (the running server drops its cached sessions). */
  onAgentChanged?: (agentId: string) => void;
}

/** Runs one admin command against the store and returns the one JSON value the CLI prints. */
export async function runAdminCommand(context: AdminContext, input: AdminCommandInput): Promise<unknown> {
  const { db } = context;
  const parsed = adminCommandSchema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[issue.path.join(".") || "command"] ??= []).push(issue.message);
    throw new AppError("validation_failed", "The command is invalid.", fields);
  }
  const command = parsed.data;
  switch (command.command) {
    case "migrate":
      return { applied: await migrate(db) };
    case "reindex":
      return { scheduled: await scheduleReembedding(db, await context.jobs(), command.agentId ?? null) };
    case "workspace.create":
      return presentWorkspace(await insertWorkspace(db, command.name, command.conversationQuota));
    case "agent.create":
      return presentAdminAgent(await createAgent(db, command));
    case "agent.publish":
    case "agent.unpublish": {
      const agent = await setAgentPublished(db, command.agentId, command.command === "agent.publish");
      if (!agent) throw notFound("agent", command.agentId);
      context.onAgentChanged?.(agent.id);
      return presentAdminAgent(agent);
    }
    case "operator.create": {
      if (!(await findWorkspace(db, command.workspaceId))) throw notFound("workspace", command.workspaceId);
      const operator = await insertOperator(db, command.workspaceId, command.email, command.name);
      if (!operator) throw new AppError("validation_failed", "This workspace already has an operator with that e-mail.", { email: ["already taken"] });
      return { id: operator.id, workspace_id: operator.workspaceId, email: operator.email, name: operator.name, created_at: operator.createdAt };
    }
    case "token.create": {
      const token = await createApiToken(db, command);
      return { ...presentToken(token), token: token.token };
    }
    case "token.revoke": {
      const token = await revokeApiToken(db, command.tokenId);
      if (!token) throw notFound("token", command.tokenId);
      return presentToken(token);
    }
    case "lead.list": {
      if (!(await findAgent(db, command.agentId))) throw notFound("agent", command.agentId);
      return listAgentLeads(db, command.agentId);
    }
    case "conversation.show": {
      const conversation = await findConversation(db, command.conversationId);
      if (!conversation) throw notFound("conversation", command.conversationId);
      return presentConversation(conversation, await listRecentMessages(db, conversation.id, 1000));
    }
    case "inbox.list": {
      if (!(await findOperator(db, command.operatorId))) throw notFound("operator", command.operatorId);
      return (await listOperatorInbox(db, command.operatorId)).map(presentNotification);
    }
  }
}
