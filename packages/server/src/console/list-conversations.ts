import { CONVERSATION_PAGE_DEFAULT, type ConversationListItem, type ConversationListQuery } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { listWorkspaceConversations, type ConversationListFilter } from "../conversations/conversations.js";
import { decodeCursor, encodeCursor } from "../paging/page-cursor.js";
import { labelsOfConversations } from "../conversations/conversation-labels.js";
import { findWorkspaceLabel } from "../labels/labels.js";
import { AppError } from "../http/app-error.js";
import { attachmentNamesOfMessages, textWithFiles } from "../attachments/attachments.js";

/**
 * GET /console/conversations: a page of the operator's workspace's conversations, newest activity
 * first, filtered, with the operator's unread counts; `next_cursor` continues after its last row.
 */
export async function listConversations(
  services: Services,
  operator: SignedInOperator,
  query: ConversationListQuery,
): Promise<{ data: ConversationListItem[]; next_cursor: string | null }> {
  const limit = query.limit ?? CONVERSATION_PAGE_DEFAULT;
  const filter: ConversationListFilter = { workspaceId: operator.workspaceId, operatorId: operator.id, limit: limit + 1 };
  if (query.status) filter.statuses = [...new Set(query.status)];
  if (query.agent_id) filter.agentId = query.agent_id;
  if (query.assignee) filter.assignee = query.assignee === "none" ? { none: true } : { operatorId: query.assignee === "me" ? operator.id : query.assignee };
  if (query.q) filter.search = query.q;
  if (query.label_id) {
    if (!(await findWorkspaceLabel(services.db, operator.workspaceId, query.label_id))) throw new AppError("label_not_found", `No label ${query.label_id} in your workspace.`);
    filter.labelId = query.label_id;
  }
  if (query.snoozed !== undefined) filter.snoozed = query.snoozed;
  if (query.cursor) {
    const [activityMicroseconds, id] = decodeCursor(query.cursor, ["us", "id"] as const);
    filter.after = { activityMicroseconds, id };
  }
  const rows = await listWorkspaceConversations(services.db, filter);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const labels = await labelsOfConversations(services.db, operator.workspaceId, page.map((row) => row.item.id));
  const filesOnly = page.flatMap((row) => (row.filesOnlyMessageId ? [row.filesOnlyMessageId] : []));
  const files = await attachmentNamesOfMessages(services.db, { workspaceId: operator.workspaceId }, filesOnly);
  const preview = (row: (typeof page)[number]): ConversationListItem["last_message"] => {
    const last = row.item.last_message;
    const names = row.filesOnlyMessageId ? files.get(row.filesOnlyMessageId) : undefined;
    return last && names ? { ...last, excerpt: textWithFiles(last.excerpt, names) } : last;
  };
  return {
    data: page.map((row) => ({ ...row.item, last_message: preview(row), labels: labels.get(row.item.id) ?? [] })),
    next_cursor: rows.length > limit && last ? encodeCursor([last.activityMicroseconds, last.item.id]) : null,
  };
}
