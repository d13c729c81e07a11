import type { ConversationLabel } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { sqlStateOf } from "../db/sql-state.js";
import { AppError } from "../http/app-error.js";
import { findWorkspaceLabel, listWorkspaceLabels, presentConversationLabel } from "../labels/labels.js";
import type { Services } from "../services.js";
import { addConversationLabel, listLabelIdsOfConversations, removeConversationLabel } from "./conversation-label-repository.js";

/** Who puts a label on: an operator in the console, or an automation holding a workspace API token. */
export interface LabellingActor {
  kind: "operator" | "api_token";
  id: string;
  name: string;
}

/** Which conversation and label: both must be the workspace's (another's is 404, as unknown). */
export interface LabelScope {
  workspaceId: string;
  conversationId: string;
  labelId: string;
}

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation with this id in your workspace.");
const labelNotFound = (labelId: string) => new AppError("label_not_found", `No label ${labelId} in your workspace.`);

/** The labels each conversation carries, in the order they were put on (their names and colours as they are now). */
export async function labelsOfConversations(db: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<Map<string, ConversationLabel[]>> {
  const ids = await listLabelIdsOfConversations(db, workspaceId, conversationIds);
  if (ids.size === 0) return new Map();
  const labels = new Map((await listWorkspaceLabels(db, workspaceId)).map((label) => [label.id, presentConversationLabel(label)]));
  return new Map([...ids].map(([conversationId, labelIds]) => [conversationId, labelIds.flatMap((id) => labels.get(id) ?? [])]));
}

async function labelsOf(db: Queryable, scope: LabelScope): Promise<{ conversation_id: string; labels: ConversationLabel[] }> {
  return { conversation_id: scope.conversationId, labels: (await labelsOfConversations(db, scope.workspaceId, [scope.conversationId])).get(scope.conversationId) ?? [] };
}

/**
 * Puts the workspace's label on its conversation (again: nothing changes) and answers the labels it
 * carries. A new one raises `conversation.labelled` in the transaction (its webhook commits with it).
 */
export async function labelConversation(services: Services, scope: LabelScope, by: LabellingActor) {
  const label = await findWorkspaceLabel(services.db, scope.workspaceId, scope.labelId);
  if (!label) throw labelNotFound(scope.labelId);
  return services.db.transaction(async (tx) => {
    const labelled = await addConversationLabel(tx, scope).catch((error: unknown) => {
      // The label was deleted between the check and the insert.
      if (sqlStateOf(error) === "23503") throw labelNotFound(scope.labelId);
      throw error;
    });
    if (!labelled) throw conversationNotFound();
    if (labelled.addedAt !== null) {
      await services.events.raise(tx, {
        type: "conversation.labelled",
        conversation: { workspaceId: scope.workspaceId, agentId: labelled.agentId, conversationId: scope.conversationId, visitorId: labelled.visitorId },
        label: presentConversationLabel(label),
        by,
        labelledAt: labelled.addedAt,
      });
    }
    return labelsOf(tx, scope);
  });
}

/**
 * Takes the workspace's label off its conversation (one it does not carry: nothing changes) and
 * answers the labels it carries; a label taken off raises `conversation.unlabelled` (the consoles' lists).
 */
export async function unlabelConversation(services: Services, scope: LabelScope) {
  if (!(await findWorkspaceLabel(services.db, scope.workspaceId, scope.labelId))) throw labelNotFound(scope.labelId);
  return services.db.transaction(async (tx) => {
    const unlabelled = await removeConversationLabel(tx, scope);
    if (!unlabelled) throw conversationNotFound();
    if (unlabelled.removed) {
      await services.events.raise(tx, {
        type: "conversation.unlabelled",
        conversation: { workspaceId: scope.workspaceId, agentId: unlabelled.agentId, conversationId: scope.conversationId, visitorId: unlabelled.visitorId },
        labelId: scope.labelId,
        unlabelledAt: services.now().toISOString(),
      });
    }
    return labelsOf(tx, scope);
  });
}
