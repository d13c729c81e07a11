import type { Database } from "../db/database.js";
import { migrate } from "../db/migrate.js";
import { scheduleReembedding } from "../ingest/schedule-reembedding.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { BusEvent } from "../realtime/event-bus.js";
import { AppError } from "../http/app-error.js";
import { listOperatorInbox } from "../inbox/notifications.js";
import { listAgentSources, presentSource } from "../sources/sources.js";
import { findAgent, listWorkspaceAgents, setAgentPublished } from "../tenants/agents.js";
import { listWorkspaceApiTokens, revokeApiToken } from "../tenants/api-tokens.js";
import { createAgent } from "../tenants/create-agent.js";
import { createApiToken } from "../tenants/create-api-token.js";
import { deleteOperator, findOperator, insertOperator, listWorkspaceOperators } from "../tenants/operators.js";
import { issueSetPasswordLink } from "../console/issue-set-password-link.js";
import { setOperatorPassword } from "../console/set-password.js";
import { operatorEvent, signedOutEvent, tokenEvent } from "../tenants/settings-events.js";
import { updateAgent } from "../tenants/update-agent.js";
import { findWorkspace, insertWorkspace, listWorkspaces, setWorkspaceRetention } from "../tenants/workspaces.js";
import { removeTotp } from "../tenants/operator-two-factor.js";
import { findConversation } from "../conversations/conversations.js";
import { listAgentLeads } from "../widget/leads.js";
import { listRecentMessages } from "../conversations/messages.js";
import { deletionAnnouncer } from "../privacy/announce-deleted-conversations.js";
import { eraseVisitor } from "../privacy/erase-visitor.js";
import { listErasures } from "../privacy/erasures.js";
import { exportVisitorData } from "../privacy/export-visitor-data.js";
import { findUserVisitor } from "../privacy/find-user-visitor.js";
import { rotateIdentitySecret } from "../tenants/rotate-identity-secret.js";
import type { IdentitySecretBox } from "../tenants/identity-secret-box.js";
import { createWebhookEndpoint, removeWebhookEndpoint } from "../webhooks/manage-webhook-endpoints.js";
import { listWorkspaceWebhookEndpoints, presentWebhookEndpoint } from "../webhooks/webhook-endpoints.js";
import type { WebhookServices } from "../webhooks/webhook-services.js";
import { createAnswerTest, presentAnswerTest, runAnswerTestsNow, type RunningServices } from "../answer-tests/answer-tests.js";
import { changeWorkspaceEmbeddings, retryWorkspaceReembedding } from "../ingest/embedding-generations/change-workspace-embeddings.js";
import type { WorkspaceEmbedders } from "../ingest/embedding-generations/workspace-embedders.js";
import { workspaceEmbeddingsStatus } from "../ingest/embedding-generations/workspace-embeddings-status.js";
import { adminCommandSchema, type AdminCommandInput } from "./admin-command.js";
import type { ModelProviderAccess } from "../answering/generate/create-answer-models.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import { removeWorkspaceModelProvider, setWorkspaceModelProvider } from "../tenants/set-workspace-model-provider.js";
import { presentWorkspaceModelProvider } from "../tenants/workspace-model-providers.js";
import { presentAdminAgent, presentConversation, presentNotification, presentOperator, presentToken, presentWorkspace } from "./present.js";

const notFound = (what: string, id: string) => new AppError("not_found", `No ${what} ${id}.`);

async function requireWorkspace(db: Database, workspaceId: string): Promise<void> {
  if (!(await findWorkspace(db, workspaceId))) throw notFound("workspace", workspaceId);
}

/** The visitor a `visitor erase|export` names: by id, or by an agent and a verified user id (privacy/find-user-visitor.ts). */
async function visitorIdOf(db: Database, command: { workspaceId: string; visitorId?: string | undefined; agentId?: string | undefined; userId?: string | undefined }): Promise<string | null> {
  if (command.visitorId !== undefined) return command.visitorId;
  return findUserVisitor(db, { workspaceId: command.workspaceId, agentId: command.agentId ?? "", userId: command.userId ?? "" });
}

const visitorNamed = (command: { visitorId?: string | undefined; agentId?: string | undefined; userId?: string | undefined }) =>
  command.visitorId !== undefined ? `visitor ${command.visitorId}` : `visitor with user id ${JSON.stringify(command.userId)} for agent ${command.agentId}`;

/** What admin commands run against: the store, and the job queue for commands that schedule work. */
export interface AdminContext {
  db: Database;
  jobs: () => Promise<JobQueue>;
  /** An agent was published, unpublished or updated (the running server drops its cached agent and sessions). */
  onAgentChanged?: (agentId: string) => void;
  /** The running server's bus: a token or operator changed here is announced to the workspace's consoles (absent without a server). */
  publish?: (event: BusEvent) => void;
  /** FRONTDESK_PUBLIC_URL: set-password links point at its console. */
  publicUrl: string;
  /** The time (tests move it); the wall clock by default. */
  now?: () => Date;
  /** Webhooks' secrets seal and address guard (from the configuration), for `webhook create`. */
  webhooks?: () => Promise<WebhookServices>;
  /** Model provider keys' seal and address guard (from the configuration), for `workspace set-model`. */
  modelProviders?: () => Promise<ModelProviderAccess>;
  /** Agents' identity secrets' seal (from the configuration), for `agent identity-secret`. */
  identitySecrets?: () => Promise<IdentitySecretBox>;
  /** The service's domain events (their subscribers), raised by changes others react to (`agent update --model`). */
  events?: () => Promise<FrontdeskEvents>;
  /** The answering pipeline and the domain events, for `answer-test run` (the running server's, or opened for the command). */
  answerTests?: () => Promise<RunningServices & { close(): Promise<void> }>;
  /** Workspaces' embedders (the instance's, the registry, the keys' seal), for `workspace set-embeddings`. */
  embedders?: () => Promise<WorkspaceEmbedders>;
}

/** The events of a command's change; without a dispatcher (a test's bare context), nobody is subscribed. */
const noSubscribers: FrontdeskEvents = { raise: async () => {} };

/** Runs one admin command against the store and returns the one JSON value the CLI prints. */
export async function runAdminCommand(context: AdminContext, input: AdminCommandInput): Promise<unknown> {
  const { db } = context;
  const now = context.now ?? (() => new Date());
  const parsed = adminCommandSchema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[issue.path.join(".") || "command"] ??= []).push(issue.message);
    const named = Object.entries(fields).map(([field, messages]) => `${field}: ${messages.join("; ")}`);
    throw new AppError("validation_failed", `The command is invalid (${named.join(", ")}).`, fields);
  }
  const command = parsed.data;
  switch (command.command) {
    case "migrate":
      return { applied: await migrate(db) };
    case "reindex":
      return { scheduled: await scheduleReembedding(db, await context.jobs(), command.agentId ?? null) };
    case "workspace.create":
      return presentWorkspace(await insertWorkspace(db, command.name, command.conversationQuota));
    case "workspace.list":
      return (await listWorkspaces(db)).map(presentWorkspace);
    case "agent.create":
      return presentAdminAgent(await createAgent(db, command));
    case "agent.update": {
      const agent = await updateAgent(db, command, (await context.events?.()) ?? noSubscribers, now);
      context.onAgentChanged?.(agent.id);
      return presentAdminAgent(agent);
    }
    case "agent.identity-secret": {
      if (!context.identitySecrets) throw new AppError("service_unavailable", "Identity secrets cannot be created here.");
      const { agent, secret } = await rotateIdentitySecret(db, await context.identitySecrets(), { agentId: command.agentId });
      context.onAgentChanged?.(agent.id);
      return { secret };
    }
    case "agent.list":
      await requireWorkspace(db, command.workspaceId);
      return (await listWorkspaceAgents(db, command.workspaceId)).map(presentAdminAgent);
    case "agent.publish":
    case "agent.unpublish": {
      const agent = await setAgentPublished(db, command.agentId, command.command === "agent.publish");
      if (!agent) throw notFound("agent", command.agentId);
      context.onAgentChanged?.(agent.id);
      return presentAdminAgent(agent);
    }
    case "operator.create": {
      await requireWorkspace(db, command.workspaceId);
      const operator = await insertOperator(db, command);
      if (!operator) throw new AppError("validation_failed", "This workspace already has an operator with that e-mail.", { email: ["already taken"] });
      const link = await issueSetPasswordLink(db, context.publicUrl, operator.id, now());
      context.publish?.(operatorEvent("operator.invited", operator, now()));
      return { ...presentOperator(operator), set_password_url: link.url, set_password_expires_at: link.expiresAt.toISOString() };
    }
    case "operator.password-link": {
      if (!(await findOperator(db, command.operatorId))) throw notFound("operator", command.operatorId);
      const link = await issueSetPasswordLink(db, context.publicUrl, command.operatorId, now());
      return { operator_id: command.operatorId, set_password_url: link.url, set_password_expires_at: link.expiresAt.toISOString() };
    }
    case "operator.set-password": {
      const operator = await findOperator(db, command.operatorId);
      const endedSessionIds = operator ? await setOperatorPassword(db, operator.id, command.password, now()) : null;
      if (!operator || !endedSessionIds) throw notFound("operator", command.operatorId);
      context.publish?.(operatorEvent("operator.updated", operator, now()));
      context.publish?.(signedOutEvent(operator.workspaceId, operator.id, endedSessionIds));
      return { ...presentOperator({ ...operator, hasPassword: true }), sessions_ended: true };
    }
    case "operator.reset-two-factor": {
      // A lost phone without its recovery codes: the operator signs in with the password alone (or
      // sets up a new authenticator at sign-in, when the workspace requires one).
      if (!(await findOperator(db, command.operatorId))) throw notFound("operator", command.operatorId);
      await db.transaction((tx) => removeTotp(tx, command.operatorId));
      return { operator_id: command.operatorId, two_factor: "off" };
    }
    case "operator.remove": {
      const removed = await deleteOperator(db, command.operatorId);
      if (!removed) throw notFound("operator", command.operatorId);
      context.publish?.(operatorEvent("operator.removed", removed, now()));
      return { ...presentOperator(removed), removed: true };
    }
    case "operator.list":
      await requireWorkspace(db, command.workspaceId);
      return (await listWorkspaceOperators(db, command.workspaceId)).map(presentOperator);
    case "token.create": {
      const token = await createApiToken(db, command);
      context.publish?.(tokenEvent("token.created", token));
      return { ...presentToken(token), token: token.token };
    }
    case "token.revoke": {
      const token = await revokeApiToken(db, command.tokenId);
      if (!token) throw notFound("token", command.tokenId);
      context.publish?.(tokenEvent("token.revoked", token));
      return presentToken(token);
    }
    case "token.list":
      await requireWorkspace(db, command.workspaceId);
      return (await listWorkspaceApiTokens(db, command.workspaceId)).map(presentToken);
    case "source.list":
      if (!(await findAgent(db, command.agentId))) throw notFound("agent", command.agentId);
      return (await listAgentSources(db, command.agentId)).map(presentSource);
    case "lead.list": {
      if (!(await findAgent(db, command.agentId))) throw notFound("agent", command.agentId);
      return listAgentLeads(db, command.agentId);
    }
    case "conversation.show": {
      const conversation = await findConversation(db, command.conversationId);
      if (!conversation) throw notFound("conversation", command.conversationId);
      return presentConversation(conversation, await listRecentMessages(db, conversation.id, 1000));
    }
    case "visitor.erase": {
      // Through the running server, its consoles are told; on the store alone, there is nobody to tell.
      const announce = context.publish ? deletionAnnouncer({ publish: context.publish, now }) : undefined;
      const visitorId = await visitorIdOf(db, command);
      const erased = visitorId === null ? null : await eraseVisitor({ db, ...(announce ? { announce } : {}) }, { workspaceId: command.workspaceId, visitorId, requestedBy: "cli" });
      if (!erased) throw new AppError("visitor_not_found", `No ${visitorNamed(command)} in workspace ${command.workspaceId} (never was, or already erased).`);
      return { erased: true, erasure_id: erased.erasureId, counts: erased.counts };
    }
    case "visitor.export": {
      const visitorId = await visitorIdOf(db, command);
      const exported = visitorId === null ? null : await exportVisitorData(db, { workspaceId: command.workspaceId, visitorId, now: now() });
      if (!exported) throw new AppError("visitor_not_found", `No ${visitorNamed(command)} in workspace ${command.workspaceId}.`);
      return exported;
    }
    case "erasure.list":
      await requireWorkspace(db, command.workspaceId);
      return listErasures(db, command.workspaceId, 1000);
    case "workspace.set-embeddings":
    case "workspace.embeddings":
    case "workspace.retry-embeddings": {
      await requireWorkspace(db, command.workspaceId);
      if (!context.embedders) throw new AppError("service_unavailable", "Embeddings cannot be changed here.");
      const embedders = await context.embedders();
      const management = { db, jobs: await context.jobs(), embedders };
      if (command.command === "workspace.set-embeddings") {
        const { provider, baseUrl, model, dimensions, apiKey } = command;
        await changeWorkspaceEmbeddings(management, command.workspaceId, { provider, baseUrl, model, dimensions, apiKey });
      } else if (command.command === "workspace.retry-embeddings") {
        await retryWorkspaceReembedding(management, command.workspaceId);
      }
      return workspaceEmbeddingsStatus(db, embedders, command.workspaceId);
    }
    case "workspace.set-retention": {
      if (!(await setWorkspaceRetention(db, command.workspaceId, command.retentionDays))) throw notFound("workspace", command.workspaceId);
      return { workspace_id: command.workspaceId, retention_days: command.retentionDays };
    }
    case "webhook.create": {
      await requireWorkspace(db, command.workspaceId);
      if (!context.webhooks) throw new AppError("service_unavailable", "Webhooks cannot be created here.");
      const webhooks = await context.webhooks();
      try {
        const { endpoint, secret } = await createWebhookEndpoint({ db, secrets: webhooks.secrets, transport: webhooks.transport }, command);
        // The secret is printed this once: only its encrypted form is stored.
        return { ...presentWebhookEndpoint(endpoint), secret };
      } finally {
        await webhooks.close();
      }
    }
    case "workspace.set-model": {
      if (!context.modelProviders) throw new AppError("service_unavailable", "Model providers cannot be set here.");
      const access = await context.modelProviders();
      try {
        const management = { db, keys: access.keys, refuseAddress: access.refuseAddress, events: (await context.events?.()) ?? noSubscribers, now };
        const { workspaceId, provider, baseUrl, model, apiKey } = command;
        const { record, agentIds } = await setWorkspaceModelProvider(management, { workspaceId, provider, baseUrl, model, apiKey });
        for (const agentId of agentIds) context.onAgentChanged?.(agentId);
        return { workspace_id: workspaceId, ...presentWorkspaceModelProvider(record) };
      } finally {
        await access.close();
      }
    }
    case "workspace.remove-model": {
      await requireWorkspace(db, command.workspaceId);
      const { removed, agentIds } = await removeWorkspaceModelProvider({ db, events: (await context.events?.()) ?? noSubscribers, now }, command.workspaceId);
      for (const agentId of agentIds) context.onAgentChanged?.(agentId);
      return { workspace_id: command.workspaceId, removed: removed !== null };
    }
    case "webhook.list":
      await requireWorkspace(db, command.workspaceId);
      return (await listWorkspaceWebhookEndpoints(db, command.workspaceId)).map(presentWebhookEndpoint);
    case "webhook.delete":
      return { ...presentWebhookEndpoint(await removeWebhookEndpoint(db, command.workspaceId, command.webhookId)), deleted: true };
    case "answer-test.create": {
      const agent = await findAgent(db, command.agentId);
      if (!agent) throw notFound("agent", command.agentId);
      const body = {
        agent_id: agent.id,
        question: command.question,
        ...(command.expectUrl === undefined ? {} : { expect_url: command.expectUrl }),
        ...(command.expectText === undefined ? {} : { expect_text: command.expectText }),
        ...(command.expectUnsure === undefined ? {} : { expect_unsure: command.expectUnsure }),
      };
      return presentAnswerTest(await createAnswerTest(db, agent.workspaceId, body, "cli"));
    }
    case "answer-test.run": {
      if (!context.answerTests) throw new AppError("service_unavailable", "Answer tests cannot be run here.");
      const services = await context.answerTests();
      try {
        const { run, results } = await runAnswerTestsNow(services, command.agentId);
        if (run.status !== "done") throw new AppError("service_unavailable", `The run ${run.id} failed: ${run.error ?? "unknown error"}.`);
        return {
          run_id: run.id,
          passed: run.passed,
          failed: run.failed,
          results: results.map((result) => ({ id: result.testId, question: result.question, passed: result.passed, reason: result.reason })),
        };
      } finally {
        await services.close();
      }
    }
    case "inbox.list": {
      if (!(await findOperator(db, command.operatorId))) throw notFound("operator", command.operatorId);
      return (await listOperatorInbox(db, command.operatorId)).map(presentNotification);
    }
  }
}
